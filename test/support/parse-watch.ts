/** The texts given to JSON.parse while `body` runs; JSON.parse is put back afterwards, whatever happens. */
export async function parsedDuring(body: () => Promise<unknown>): Promise<string[]> {
  const texts: string[] = [];
  const parse = JSON.parse;
  JSON.parse = ((text: string, reviver?: Parameters<typeof JSON.parse>[1]) => {
    texts.push(String(text));
    return parse(text, reviver);
  }) as typeof JSON.parse;
  try {
    await body();
  } finally {
    JSON.parse = parse;
  }
  return texts;
}
