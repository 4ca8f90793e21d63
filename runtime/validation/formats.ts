/**
 * The `format` checks of generated validators, written here so that dispatching compiled tools loads no
 * ajv-formats: a checker per format the transformer accepts (transformer/schema/keywords.ts, KNOWN_FORMATS), each
 * accepting exactly what ajv-formats' full mode accepts (what hand-written schemas get through ajv), proven by
 * test/transformer/validator/formats.test.ts on a corpus of valid and invalid strings per format. A checker answers
 * `true` for
 * values of another type, as JSON Schema applies formats; some formats first cap the length (FORMAT_LENGTH_LIMITS).
 *
 * Each format is an exported function of its own, re-exported by `tooltype/kit` (runtime/entries/kit.ts): generated
 * validators import the ones their schemas use, so a bundle holds only those (nothing here runs as the module
 * loads). A validator hands the ones it uses to the kit (`v()`), which explains an invalid value with the very
 * same checks.
 */

/**
 * Longest string some formats are tried on. Their regular expressions backtrack on long near-misses, and a longer
 * value is no valid instance anyway (an email address has at most 254 characters, a host name 253).
 */
export const FORMAT_LENGTH_LIMITS: Record<string, number> = {
  email: 254,
  hostname: 253,
  ipv4: 15,
  ipv6: 45,
  "date-time": 64,
  "iso-date-time": 64,
  date: 32,
  time: 32,
  "iso-time": 32,
  duration: 64,
  uuid: 45,
  url: 8192,
  uri: 8192,
  "uri-reference": 8192,
  "uri-template": 8192,
  // Compiling a regular expression costs more than linear time in its length.
  regex: 4096,
};

/** A string format's answer: `true` for values of other types, `false` past the format's length cap. */
function stringFormat(value: unknown, name: string, check: (text: string) => boolean): boolean {
  if (typeof value !== "string") return true;
  const limit = FORMAT_LENGTH_LIMITS[name];
  return (limit === undefined || value.length <= limit) && check(value);
}

// One function declaration per format, so that a bundler keeps only those a build's validators import.

export function int32(value: unknown): boolean {
  return typeof value !== "number" || (Number.isInteger(value) && value >= -2147483648 && value <= 2147483647);
}

/** A JSON number that is an integer fits JavaScript's range of exact integers as far as it can be checked. */
export function int64(value: unknown): boolean {
  return typeof value !== "number" || Number.isInteger(value);
}

export function date(value: unknown): boolean {
  return stringFormat(value, "date", isDate);
}

export function time(value: unknown): boolean {
  return stringFormat(value, "time", (text) => isTime(text, true));
}

export function isoTime(value: unknown): boolean {
  return stringFormat(value, "iso-time", (text) => isTime(text, false));
}

export function dateTime(value: unknown): boolean {
  return stringFormat(value, "date-time", (text) => isDateTime(text, true));
}

export function isoDateTime(value: unknown): boolean {
  return stringFormat(value, "iso-date-time", (text) => isDateTime(text, false));
}

/** ISO 8601 durations: years to seconds with the time part after `T`, or weeks alone. */
export function duration(value: unknown): boolean {
  return stringFormat(value, "duration", (text) =>
    /^P(?:\d+W|(?=\d|T\d)(?:\d+Y)?(?:\d+M)?(?:\d+D)?(?:T(?=\d)(?:\d+H)?(?:\d+M)?(?:\d+S)?)?)$/.test(text),
  );
}

export function email(value: unknown): boolean {
  return stringFormat(value, "email", isEmail);
}

export function hostname(value: unknown): boolean {
  return stringFormat(value, "hostname", isHostname);
}

export function ipv4(value: unknown): boolean {
  return stringFormat(value, "ipv4", isIpv4);
}

export function ipv6(value: unknown): boolean {
  return stringFormat(value, "ipv6", (text) => isIpv6(text, isIpv4));
}

export function uuid(value: unknown): boolean {
  return stringFormat(value, "uuid", (text) => /^(?:urn:uuid:)?[\da-f]{8}(?:-[\da-f]{4}){3}-[\da-f]{12}$/i.test(text));
}

export function uri(value: unknown): boolean {
  return stringFormat(value, "uri", (text) => isUri(text, true, strictUri()));
}

export function uriReference(value: unknown): boolean {
  return stringFormat(value, "uri-reference", (text) => isUri(text, false, lenientUri()));
}

export function uriTemplate(value: unknown): boolean {
  return stringFormat(value, "uri-template", isUriTemplate);
}

export function url(value: unknown): boolean {
  return stringFormat(value, "url", isUrl);
}

export function jsonPointer(value: unknown): boolean {
  return stringFormat(value, "json-pointer", isJsonPointer);
}

export function relativeJsonPointer(value: unknown): boolean {
  return stringFormat(value, "relative-json-pointer", (text) => {
    const digits = /^(?:0|[1-9]\d*)/.exec(text);
    return digits !== null && (text.slice(digits[0].length) === "#" || isJsonPointer(text.slice(digits[0].length)));
  });
}

export function jsonPointerUriFragment(value: unknown): boolean {
  return stringFormat(value, "json-pointer-uri-fragment", (text) =>
    /^#(?:\/(?:[\w\-.!$&'()*+,;:=@]|%[\da-f]{2}|~[01])*)*$/i.test(text),
  );
}

export function regex(value: unknown): boolean {
  return stringFormat(value, "regex", (text) => {
    // `\Z` is no anchor in JavaScript (it matches a plain Z), so a pattern with one means something else here.
    if (/[^\\]\\Z/.test(text)) return false;
    try {
      new RegExp(text);
      return true;
    } catch {
      return false;
    }
  });
}

/** Base64: some line holds only whole groups of four, padded at the end. */
export function byte(value: unknown): boolean {
  return stringFormat(value, "byte", (text) =>
    text
      .split(/[\n\r\u2028\u2029]/)
      .some((line) => /^(?:[A-Za-z\d+/]{4})*(?:[A-Za-z\d+/]{2}==|[A-Za-z\d+/]{3}=)?$/.test(line)),
  );
}

// Dates and times (RFC 3339; the iso- variants make the time zone optional and allow a space before the time).

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isDate(text: string): boolean {
  const parts = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!parts) return false;
  const year = Number(parts[1]);
  const month = Number(parts[2]);
  const day = Number(parts[3]);
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!);
}

/** A time's parts: minutes since midnight, seconds, and the offset from UTC in minutes (0 when none is given). */
interface TimeParts {
  minutes: number;
  second: number;
  offset: number;
}

function timeParts(text: string, zoneRequired: boolean): TimeParts | undefined {
  const parts = /^(\d{2}):(\d{2}):(\d{2}(?:\.\d+)?)(?:(z)|([+-])(\d{2})(?::?(\d{2}))?)?$/i.exec(text);
  if (!parts) return undefined;
  const [, h, m, s, z, sign, zoneH, zoneM] = parts;
  if (zoneRequired && !z && !sign) return undefined;
  const hour = Number(h);
  const minute = Number(m);
  const second = Number(s);
  const offsetH = Number(zoneH ?? 0);
  const offsetM = Number(zoneM ?? 0);
  if (offsetH > 23 || offsetM > 59 || hour > 23 || minute > 59 || second >= 61) return undefined;
  return { minutes: hour * 60 + minute, second, offset: (sign === "-" ? -1 : 1) * (offsetH * 60 + offsetM) };
}

/** Minutes since midnight UTC of a time, from -1440 to 2879 (the day before or after, by its offset). */
function utcMinutes(time: TimeParts): number {
  return time.minutes - time.offset;
}

function isTime(text: string, zoneRequired: boolean): boolean {
  const time = timeParts(text, zoneRequired);
  if (time === undefined) return false;
  if (time.second < 60) return true;
  // A leap second is 23:59:60 UTC, whatever the offset says locally; a time alone names no date to check.
  return (utcMinutes(time) + 1440) % 1440 === 1439;
}

/**
 * The UTC dates whose last minute had a leap second (IERS Bulletin C, 1972 to 2016; none has been announced
 * since, and the CGPM decided in 2022 to stop adding them by 2035). `23:59:60` on any other date names no instant.
 */
const LEAP_SECOND_DATES = new Set([
  "1972-06-30",
  "1972-12-31",
  "1973-12-31",
  "1974-12-31",
  "1975-12-31",
  "1976-12-31",
  "1977-12-31",
  "1978-12-31",
  "1979-12-31",
  "1981-06-30",
  "1982-06-30",
  "1983-06-30",
  "1985-06-30",
  "1987-12-31",
  "1989-12-31",
  "1990-12-31",
  "1992-06-30",
  "1993-06-30",
  "1994-06-30",
  "1995-12-31",
  "1997-06-30",
  "1998-12-31",
  "2005-12-31",
  "2008-12-31",
  "2012-06-30",
  "2015-06-30",
  "2016-12-31",
]);

function isDateTime(text: string, zoneRequired: boolean): boolean {
  // Date and time split at the one `T` or white-space character between them.
  const halves = text.split(/[t\s]/i);
  if (halves.length !== 2 || !isDate(halves[0]!)) return false;
  const time = timeParts(halves[1]!, zoneRequired);
  if (time === undefined) return false;
  if (time.second < 60) return true;
  const utc = utcMinutes(time);
  if ((utc + 1440) % 1440 !== 1439) return false;
  // The UTC date of the leap second: the local date, moved by a day when the offset crosses midnight.
  const day = new Date(`${halves[0]}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + Math.floor(utc / 1440));
  return LEAP_SECOND_DATES.has(day.toISOString().slice(0, 10));
}

// Internet names and addresses.

const OCTET = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

function isIpv4(text: string): boolean {
  const octets = text.split(".");
  return octets.length === 4 && octets.every((octet) => OCTET.test(octet));
}

const HEX_GROUP = /^[\da-f]{1,4}$/i;

/**
 * Eight groups of one to four hex digits, the last two possibly written as an IPv4 address, or fewer groups with
 * one `::` standing for at least one group of zeros. `ipv4` tells which dotted quads count.
 */
function isIpv6(text: string, ipv4: (text: string) => boolean): boolean {
  const halves = text.split("::");
  if (halves.length > 2) return false;
  const groups = halves.map((half) => (half === "" ? [] : half.split(":")));
  // Only the very last group may be a dotted quad, and it stands for two.
  const tail = groups[groups.length - 1]!;
  const quad = tail.length > 0 && tail[tail.length - 1]!.includes(".") ? tail.pop()! : undefined;
  if (quad !== undefined && !ipv4(quad)) return false;
  const hex = groups.flat();
  if (!hex.every((group) => HEX_GROUP.test(group))) return false;
  const count = hex.length + (quad === undefined ? 0 : 2);
  return halves.length === 2 ? count <= 7 : count === 8;
}

/** A label of a host name: letters, digits and inner hyphens, at most 63 characters. */
const LABEL = /^[a-z\d](?:[a-z\d-]{0,61}[a-z\d])?$/i;

function isHostname(text: string): boolean {
  const name = text.endsWith(".") ? text.slice(0, -1) : text;
  return name.length >= 1 && name.length <= 253 && name.split(".").every((label) => LABEL.test(label));
}

/** The characters of an email address's local part besides letters and digits. */
const ATOM = /^[a-z\d!#$%&'*+/=?^_`{|}~-]+$/i;
/** A domain label of an email address: inner hyphens only, any length. */
const MAIL_LABEL = /^[a-z\d](?:[a-z\d-]*[a-z\d])?$/i;

function isEmail(text: string): boolean {
  const at = text.indexOf("@");
  if (at < 0) return false;
  const labels = text.slice(at + 1).split(".");
  return (
    text
      .slice(0, at)
      .split(".")
      .every((atom) => ATOM.test(atom)) &&
    labels.length >= 2 &&
    labels.every((label) => MAIL_LABEL.test(label))
  );
}

// URIs (RFC 3986), URI templates (RFC 6570) and web URLs.

/** The characters each part of a URI may hold besides percent-escapes, by part. */
interface UriCharacters {
  userinfo: RegExp;
  host: RegExp;
  segment: RegExp;
  query: RegExp;
}

const PCT = "%[\\da-f]{2}";
const chars = (set: string): RegExp => new RegExp(`^(?:[${set}]|${PCT})*$`, "i");

// Built on first use, not as the module loads: a bundle that keeps only some formats drops the others' tables.
let strict: UriCharacters | undefined;
let lenient: UriCharacters | undefined;

function strictUri(): UriCharacters {
  return (strict ??= {
    userinfo: chars("\\w\\-.~!$&'()*+,;=:"),
    host: chars("\\w\\-.~!$&'()*+,;="),
    segment: chars("\\w\\-.~!$&'()*+,;=:@"),
    query: chars("\\w\\-.~!$&'()*+,;=:@/?"),
  });
}

/** `uri-reference` as ajv-formats checks it also lets a double quote stand in hosts, paths, queries and fragments. */
function lenientUri(): UriCharacters {
  return (lenient ??= {
    userinfo: strictUri().userinfo,
    host: chars("\\w\\-.~!$&'\"()*+,;="),
    segment: chars("\\w\\-.~!$&'\"()*+,;=:@"),
    query: chars("\\w\\-.~!$&'\"()*+,;=:@/?"),
  });
}

/** An IPv4 address inside a URI host: each part one to three digits up to 255, leading zeros allowed. */
function isUriIpv4(text: string): boolean {
  const octets = text.split(".");
  return octets.length === 4 && octets.every((octet) => /^\d{1,3}$/.test(octet) && Number(octet) <= 255);
}

/** `[...]` in a URI: an IPv6 address or an IPvFuture literal. */
function isIpLiteral(inner: string): boolean {
  return /^v[\da-f]+\.[\w\-.~!$&'()*+,;=:]+$/i.test(inner) || isIpv6(inner, isUriIpv4);
}

/** A URI, or with `schemeRequired` false a URI reference; `c`: the characters allowed per part. */
function isUri(text: string, schemeRequired: boolean, c: UriCharacters): boolean {
  // Neither `?` nor `#` can stand before the query and the fragment, so the first of each starts them.
  let rest = text;
  const fragment = rest.indexOf("#");
  if (fragment >= 0) {
    if (!c.query.test(rest.slice(fragment + 1))) return false;
    rest = rest.slice(0, fragment);
  }
  const query = rest.indexOf("?");
  if (query >= 0) {
    if (!c.query.test(rest.slice(query + 1))) return false;
    rest = rest.slice(0, query);
  }
  const hierarchy = (part: string): boolean =>
    part === "" ? !schemeRequired : withAuthority(part, c) || path(part, c);
  const scheme = /^[a-z][a-z\d+\-.]*:/i.exec(rest);
  if (scheme && hierarchy(rest.slice(scheme[0].length))) return true;
  return !schemeRequired && hierarchy(rest);
}

/** A path without authority: absolute (`/`, `/a/b`) or relative (`a/b`), its first segment not empty. */
function path(text: string, c: UriCharacters): boolean {
  const segments = (text.startsWith("/") ? text.slice(1) : text).split("/");
  if (text === "/") return true;
  return segments[0] !== "" && segments.every((segment) => c.segment.test(segment));
}

/**
 * `//` (or, as ajv-formats reads it, a single `/`) and an authority, `userinfo@host:port`, then an absolute or
 * empty path.
 */
function withAuthority(text: string, c: UriCharacters): boolean {
  if (!text.startsWith("/")) return false;
  return (text.startsWith("//") && authority(text.slice(2), c)) || authority(text.slice(1), c);
}

function authority(text: string, c: UriCharacters): boolean {
  const slash = text.indexOf("/");
  const head = slash < 0 ? text : text.slice(0, slash);
  if (
    slash >= 0 &&
    !text
      .slice(slash + 1)
      .split("/")
      .every((segment) => c.segment.test(segment))
  )
    return false;
  const at = head.indexOf("@");
  if (at >= 0 && !c.userinfo.test(head.slice(0, at))) return false;
  const hostPort = head.slice(at + 1);
  const port = /:\d*$/.exec(hostPort);
  const hosts = port ? [hostPort, hostPort.slice(0, port.index)] : [hostPort];
  return hosts.some((host) =>
    host.startsWith("[") && host.endsWith("]") ? isIpLiteral(host.slice(1, -1)) : c.host.test(host),
  );
}

function isJsonPointer(text: string): boolean {
  return (text === "" || text.startsWith("/")) && !/~(?![01])/.test(text);
}

let uriTemplatePattern: RegExp | undefined;

/** Literal characters or percent-escapes, and `{expressions}` of variable names with an operator and modifiers. */
function isUriTemplate(text: string): boolean {
  const variable = `(?:\\w|${PCT})+(?::[1-9]\\d{0,3}|\\*)?`;
  uriTemplatePattern ??= new RegExp(
    `^(?:[^\\x00-\\x20"'<>%\\\\^\`{|}]|${PCT}|\\{[+#./;?&=,!@|]?${variable}(?:,${variable})*\\})*$`,
    "i",
  );
  return uriTemplatePattern.test(text);
}

/**
 * A web address: http, https or ftp, `://`, optional user info, a public host (a name with a top-level domain of
 * letters, or an IPv4 address outside the private and loopback ranges), an optional port and path.
 */
function isUrl(text: string): boolean {
  const scheme = /^(?:https?|ftp):\/\//i.exec(text);
  if (!scheme) return false;
  const rest = text.slice(scheme[0].length);
  if (urlHost(rest)) return true;
  // User info is any run of non-space characters before an `@`, so each `@` may end it.
  for (let at = rest.indexOf("@"); at >= 0; at = rest.indexOf("@", at + 1)) {
    if (at > 0 && !/\s/.test(rest.slice(0, at)) && urlHost(rest.slice(at + 1))) return true;
  }
  return false;
}

/** Host, optional port of two to five digits, optional path of non-space characters. */
function urlHost(text: string): boolean {
  const slash = text.indexOf("/");
  if (slash >= 0 && /\s/.test(text.slice(slash))) return false;
  const hostPort = slash < 0 ? text : text.slice(0, slash);
  const colon = hostPort.indexOf(":");
  if (colon >= 0 && !/^\d{2,5}$/.test(hostPort.slice(colon + 1))) return false;
  const host = colon < 0 ? hostPort : hostPort.slice(0, colon);
  return publicIpv4(host) || domainName(host);
}

const FIRST_OCTET = /^(?:[1-9]\d?|1\d\d|2[01]\d|22[0-3])$/;
const MIDDLE_OCTET = /^(?:\d{1,2}|1\d\d|2[0-4]\d|25[0-5])$/;
const LAST_OCTET = /^(?:[1-9]\d?|1\d\d|2[0-4]\d|25[0-4])$/;

function publicIpv4(host: string): boolean {
  const octets = host.split(".");
  if (
    octets.length !== 4 ||
    !FIRST_OCTET.test(octets[0]!) ||
    !MIDDLE_OCTET.test(octets[1]!) ||
    !MIDDLE_OCTET.test(octets[2]!) ||
    !LAST_OCTET.test(octets[3]!)
  )
    return false;
  const [a, b] = [octets[0], Number(octets[1])];
  const prefix = `${a}.${octets[1]}`;
  return (
    a !== "10" &&
    a !== "127" &&
    prefix !== "169.254" &&
    prefix !== "192.168" &&
    !(a === "172" && /^\d{2}$/.test(octets[1]!) && b >= 16 && b <= 31)
  );
}

/** Letters here: ASCII letters and every other character of the Basic Multilingual Plane from U+00A1 on. */
function isLetter(c: string): boolean {
  const code = c.codePointAt(0)!;
  return (code >= 0xa1 && code <= 0xffff) || /^[a-z]$/i.test(c);
}

/** Labels of letters and digits with inner single hyphens, the last one (the top-level domain) two letters or more. */
function domainName(host: string): boolean {
  const labels = host.split(".");
  if (labels.length < 2) return false;
  const tld = [...labels.pop()!];
  if (tld.length < 2 || !tld.every(isLetter)) return false;
  return labels.every(
    (label) =>
      label !== "" &&
      !label.startsWith("-") &&
      !label.endsWith("-") &&
      !label.includes("--") &&
      [...label].every((c) => c === "-" || /^\d$/.test(c) || isLetter(c)),
  );
}
