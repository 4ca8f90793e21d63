import type * as ts from "typescript";
export default function tooltypeTransformer(_program: ts.Program): ts.TransformerFactory<ts.SourceFile> {
  return () => (sf) => sf;
}
