import {
  DIMENSIONLESS,
  type IUnit,
  isDimensionless,
  matchingParen,
  parseUnitAt,
  sameDims,
  type TDims,
} from "./units";

/**
 * The linearised math of textbook solutions ("(304 m)/(180 s)", "(2.4 m/s)(46 s)",
 * "6.67 × 10^(− 11)(N ⋅ m^2)/(kg^2)", "√(2.09 × 10^4(m^2)/(s^2))", "(1.50 m)(250 N)sin(π/2)")
 * parsed into a tree whose leaves are the numbers as written, each with its unit. The tree is
 * evaluated twice at once: in SI with dimensions (to check the book's arithmetic and units) and
 * with the numbers as written (what a student keys into a calculator, used for slips).
 */

export interface ILiteral {
  id: number;
  /** Span of the number and its unit in the parsed text. */
  start: number;
  end: number;
  /** Span of the number alone ("6.67 × 10^(− 11)"), which a new value replaces. */
  numEnd: number;
  text: string;
  /** The value as written, without its unit. */
  value: number;
  unit: IUnit | null;
  unitText: string;
  sig: number;
  /** The place value of the last written digit (0.1 for "2.9", 10 for "180"): the rounding step. */
  place: number;
  sci: boolean;
  grouped: boolean;
  /** An exponent ("^2", "^(3/2)"): part of the formula, never a given. */
  structural: boolean;
}

export type TFunction = "sqrt" | "sin" | "cos" | "tan" | "asin" | "acos" | "atan" | "log" | "ln";

export type TNode =
  | { k: "lit"; lit: ILiteral }
  | { k: "unit"; unit: IUnit; text: string }
  | { k: "pi" }
  | { k: "neg"; a: TNode }
  | { k: "bin"; op: "+" | "-" | "*" | "/"; a: TNode; b: TNode }
  | { k: "pow"; a: TNode; b: TNode }
  | { k: "fn"; name: TFunction; a: TNode };

export interface IParsed {
  node: TNode;
  literals: ILiteral[];
  /** The parsed span within the source text. */
  start: number;
  end: number;
}

const MINUS = "−–-";
const TIMES = "×*⋅·";
const NUMBER_RE = /^(?:\d{1,3}(?:,\s?\d{3})+(?![\d.])|\d{1,3}(?:,\d{3})+(?=\.\d)|\d+)(?:\.\d+)?|^\.\d+/;
const SCI_RE =
  /^\s*[×x⋅·*]\s*10\s*(?:\^\s*(?:\(\s*([−–-]?)\s*(\d+)\s*\)|([−–-]?)\s?(\d+))|([⁻]?)([⁰¹²³⁴⁵⁶⁷⁸⁹]+))/u;
const POW10_RE = /^10\s*(?:\^\s*(?:\(\s*([−–-]?)\s*(\d+)\s*\)|([−–-]?)(\d+))|([⁻]?)([⁰¹²³⁴⁵⁶⁷⁸⁹]+))/u;
const SUPERSCRIPT_RE = /^([⁻]?)([⁰¹²³⁴⁵⁶⁷⁸⁹]+)/u;
const SUPER_DIGITS = "⁰¹²³⁴⁵⁶⁷⁸⁹";
/** "⁻¹¹" → "-11". */
const fromSuperscript = (sign: string | undefined, digits: string) =>
  `${sign ? "-" : ""}${[...digits].map((c) => SUPER_DIGITS.indexOf(c)).join("")}`;
const FUNCTION_RE = /^(?:arcsin|arccos|arctan|sin|cos|tan|log|ln)(?:\s*\^\s*\(\s*[−–-]\s*1\s*\)|\^[−–-]1)?/;

/** Parses `text[start, end)` as a whole; null when any part of it is not numeric math. */
export function parseExpression(text: string, start = 0, end = text.length): IParsed | null {
  const parser = new Parser(text.slice(0, end), start, []);
  try {
    const node = parser.expression();
    parser.skipSpaces();
    if (parser.pos !== end) return null;
    return { node, literals: parser.literals, start, end };
  } catch (error) {
    if (error instanceof ParseError) return null;
    throw error;
  }
}

/**
 * The quantity (number, unit) written at `pos`: a given in a problem statement ("80.0-kg",
 * "46 seconds", "3.84 × 10^8m") or a stated result. Null when no number starts there.
 */
export function readQuantity(text: string, pos: number, prose = false): ILiteral | null {
  const parser = new Parser(text, pos, []);
  try {
    const node = parser.number(false, prose);
    return node?.k === "lit" ? node.lit : null;
  } catch (error) {
    if (error instanceof ParseError) return null;
    throw error;
  }
}

class ParseError extends Error {}

class Parser {
  constructor(
    private readonly src: string,
    public pos: number,
    /** Shared with the parsers of nested groups, so literal ids number the whole expression. */
    readonly literals: ILiteral[],
  ) {}

  skipSpaces(): void {
    while (this.pos < this.src.length && /\s/.test(this.src[this.pos]!)) this.pos++;
  }

  private peek(): string {
    this.skipSpaces();
    return this.src.charAt(this.pos);
  }

  expression(): TNode {
    let node = this.unary();
    for (;;) {
      const c = this.peek();
      if (c === "+") {
        this.pos++;
        node = { k: "bin", op: "+", a: node, b: this.unary() };
      } else if (MINUS.includes(c) && c !== "") {
        this.pos++;
        node = { k: "bin", op: "-", a: node, b: this.unary() };
      } else return node;
    }
  }

  private unary(): TNode {
    const c = this.peek();
    if (c !== "" && MINUS.includes(c)) {
      this.pos++;
      return { k: "neg", a: this.unary() };
    }
    if (c === "+") {
      this.pos++;
      return this.unary();
    }
    return this.term();
  }

  /** Products and quotients, left to right; juxtaposition ("(2.4 m/s)(46 s)", "4π^2L") multiplies. */
  private term(): TNode {
    let node = this.power();
    for (;;) {
      const c = this.peek();
      const rest = this.src.slice(this.pos);
      if (c !== "" && (TIMES.includes(c) || /^x\s/.test(rest))) {
        this.pos++;
        node = { k: "bin", op: "*", a: node, b: this.factorOrUnit() };
      } else if (c === "/") {
        this.pos++;
        node = { k: "bin", op: "/", a: node, b: this.factorOrUnit() };
      } else if (this.startsPrimary()) {
        node = { k: "bin", op: "*", a: node, b: this.power() };
      } else return node;
    }
  }

  /** After "/" or "×" a bare unit may stand alone: "(30.0 km)/h", "× (1 h)/(3600 s)". */
  private factorOrUnit(): TNode {
    this.skipSpaces();
    if (/^[A-Za-z°%]/.test(this.src.slice(this.pos)) && !FUNCTION_RE.test(this.src.slice(this.pos))) {
      const unit = parseUnitAt(this.src, this.pos);
      if (!unit) throw new ParseError("unknown symbol");
      this.pos = unit.end;
      return { k: "unit", unit: unit.unit, text: unit.text };
    }
    return this.power();
  }

  private startsPrimary(): boolean {
    const c = this.peek();
    const rest = this.src.slice(this.pos);
    return /[\d(π√]/.test(c) || /^\.\d/.test(rest) || FUNCTION_RE.test(rest);
  }

  private power(): TNode {
    const base = this.primary();
    this.skipSpaces();
    const sup = SUPERSCRIPT_RE.exec(this.src.slice(this.pos));
    if (sup) {
      // "(2.4 s)²": a superscript power, as display text writes it.
      const text = sup[0];
      const value = Number(fromSuperscript(sup[1], sup[2]!));
      const start = this.pos;
      this.pos += text.length;
      const lit: ILiteral = {
        id: this.literals.length,
        start,
        end: this.pos,
        numEnd: this.pos,
        text,
        value,
        unit: null,
        unitText: "",
        sig: text.length,
        place: 1,
        sci: false,
        grouped: false,
        structural: true,
      };
      this.literals.push(lit);
      return { k: "pow", a: base, b: { k: "lit", lit } };
    }
    if (this.src.charAt(this.pos) !== "^") return base;
    this.pos++;
    return { k: "pow", a: base, b: this.exponent() };
  }

  private exponent(): TNode {
    const c = this.peek();
    if (c === "(") return this.group(true);
    if (c !== "" && MINUS.includes(c)) {
      this.pos++;
      return { k: "neg", a: this.exponent() };
    }
    const lit = this.number(true);
    if (!lit) throw new ParseError("exponent");
    return lit;
  }

  private group(structural = false): TNode {
    const open = this.pos;
    const close = matchingParen(this.src, open);
    if (close < 0) throw new ParseError("unbalanced");
    const first = this.literals.length;
    const inner = new Parser(this.src.slice(0, close), open + 1, this.literals);
    const node = inner.expression();
    inner.skipSpaces();
    if (inner.pos !== close) throw new ParseError("group");
    if (structural) for (const lit of this.literals.slice(first)) lit.structural = true;
    this.pos = close + 1;
    return node;
  }

  private primary(): TNode {
    const c = this.peek();
    const rest = this.src.slice(this.pos);
    if (c === "(") return this.withTrailingUnit(this.group());
    if (c === "√") {
      this.pos++;
      return { k: "fn", name: "sqrt", a: this.power() };
    }
    if (c === "π") {
      this.pos++;
      return this.withTrailingUnit({ k: "pi" }, true);
    }
    const fn = FUNCTION_RE.exec(rest);
    if (fn) {
      this.pos += fn[0].length;
      const base = /sin|cos|tan|log|ln/.exec(fn[0])![0];
      const name = (/\^|arc/.test(fn[0]) ? `a${base}` : base) as TFunction;
      return { k: "fn", name, a: this.power() };
    }
    const lit = this.number(false);
    if (lit) return lit;
    throw new ParseError("primary");
  }

  /** "(65.0 + 12.0 + 7.0) kg", "√(…) m", "π rad": a unit after a group multiplies it. */
  private withTrailingUnit(node: TNode, tight = false): TNode {
    const gap = /^\s?/.exec(this.src.slice(this.pos))![0].length;
    if ((gap === 0 && !tight) || !/^[A-Za-z°%]/.test(this.src.slice(this.pos + gap))) return node;
    if (FUNCTION_RE.test(this.src.slice(this.pos + gap))) return node;
    const unit = parseUnitAt(this.src, this.pos + gap);
    if (!unit) return node;
    this.pos = unit.end;
    return { k: "bin", op: "*", a: node, b: { k: "unit", unit: unit.unit, text: unit.text } };
  }

  number(structural: boolean, prose = false): TNode | null {
    this.skipSpaces();
    const start = this.pos;
    const rest = this.src.slice(start);
    let text: string;
    let value: number;
    let sig: number;
    let place: number;
    let sci = false;
    const pow10 = POW10_RE.exec(rest);
    const m = NUMBER_RE.exec(rest);
    if (pow10 && !structural) {
      const exp = exponentOf(pow10);
      text = pow10[0];
      value = 10 ** exp;
      sig = 1;
      place = value;
      sci = true;
    } else if (m) {
      const mantissa = m[0];
      const digits = mantissa.replace(/[,\s]/g, "");
      value = Number(digits);
      ({ sig, place } = significance(digits));
      text = mantissa;
      const sciPart = structural ? null : SCI_RE.exec(rest.slice(mantissa.length));
      if (sciPart) {
        const exp = exponentOf(sciPart);
        value *= 10 ** exp;
        place *= 10 ** exp;
        text += sciPart[0];
        sci = true;
      }
    } else return null;
    this.pos = start + text.length;
    const numEnd = this.pos;
    let unit: IUnit | null = null;
    let unitText = "";
    if (!structural) {
      // A unit follows directly or after one space: "2.4 m/s", "0.417m/(s^2)", "10^(− 11)(N ⋅ m^2)";
      // in prose also after a hyphen ("80.0-kg person").
      const gap = (prose ? /^[ \u00a0-]?/ : /^ ?/).exec(this.src.slice(this.pos))![0].length;
      const parsed = FUNCTION_RE.test(this.src.slice(this.pos + gap))
        ? null
        : parseUnitAt(this.src, this.pos + gap);
      if (parsed) {
        unit = parsed.unit;
        unitText = parsed.text;
        this.pos = parsed.end;
      }
    }
    const lit: ILiteral = {
      id: this.literals.length,
      start,
      end: this.pos,
      numEnd,
      text,
      value,
      unit,
      unitText,
      sig,
      place,
      sci,
      grouped: /,/.test(text),
      structural,
    };
    this.literals.push(lit);
    return { k: "lit", lit };
  }
}

/** The exponent of a "10^(−3)", "10^3" or "10⁻³" match (SCI_RE, POW10_RE groups). */
function exponentOf(m: RegExpExecArray): number {
  if (m[6]) return Number(fromSuperscript(m[5], m[6]));
  const sign = m[1] ?? m[3];
  const n = Number(m[2] ?? m[4] ?? "0");
  return sign && MINUS.includes(sign) ? -n : n;
}

/** Significant figures and rounding step of a plain decimal numeral ("0.250" → 3, 0.001). */
export function significance(digits: string): { sig: number; place: number } {
  const [int = "", frac] = digits.split(".");
  if (frac !== undefined) {
    const all = (int + frac).replace(/^0+/, "");
    return { sig: Math.max(1, all.length), place: 10 ** -frac.length };
  }
  const trimmed = int.replace(/^0+/, "");
  if (!trimmed) return { sig: 1, place: 1 };
  const trailing = /0*$/.exec(trimmed)![0].length;
  return { sig: Math.max(1, trimmed.length - trailing), place: 10 ** trailing };
}

// ---------------------------------------------------------------------------------------------
// Evaluation

export interface IValue {
  /** The value in SI units. */
  si: number;
  dims: TDims;
  /** The value computed from the numbers as written, units ignored (angles still in degrees). */
  written: number;
  /** Some literal under it carries a unit. */
  unitful: boolean;
  /** Quantities of different dimensions were added (the book dropped a unit somewhere). */
  inconsistent: boolean;
}

/** Replacement written values by literal id (new givens, recomputed intermediate results). */
export type TOverrides = ReadonlyMap<number, number>;

export function evaluate(node: TNode, overrides: TOverrides = new Map()): IValue {
  switch (node.k) {
    case "lit": {
      const v = overrides.get(node.lit.id) ?? node.lit.value;
      const u = node.lit.unit;
      const angleFactor = u?.angle ? u.factor : 1;
      return {
        si: v * (u?.factor ?? 1),
        dims: u?.dims ?? DIMENSIONLESS,
        written: v * angleFactor,
        unitful: u !== null,
        inconsistent: false,
      };
    }
    case "unit":
      return {
        si: node.unit.factor,
        dims: node.unit.dims,
        written: node.unit.angle ? node.unit.factor : 1,
        unitful: true,
        inconsistent: false,
      };
    case "pi":
      return { si: Math.PI, dims: DIMENSIONLESS, written: Math.PI, unitful: false, inconsistent: false };
    case "neg": {
      const a = evaluate(node.a, overrides);
      return { ...a, si: -a.si, written: -a.written };
    }
    case "bin":
      return binary(node.op, evaluate(node.a, overrides), evaluate(node.b, overrides));
    case "pow": {
      const a = evaluate(node.a, overrides);
      const b = evaluate(node.b, overrides);
      return {
        si: a.si ** b.si,
        dims: a.dims.map((d) => d * b.si),
        written: a.written ** b.written,
        unitful: a.unitful,
        inconsistent: a.inconsistent || b.inconsistent || !isDimensionless(b.dims),
      };
    }
    case "fn":
      return applyFunction(node.name, evaluate(node.a, overrides));
  }
}

function binary(op: "+" | "-" | "*" | "/", a: IValue, b: IValue): IValue {
  const unitful = a.unitful || b.unitful;
  const inconsistent = a.inconsistent || b.inconsistent;
  if (op === "*" || op === "/") {
    const s = op === "*" ? 1 : -1;
    return {
      si: op === "*" ? a.si * b.si : a.si / b.si,
      dims: a.dims.map((d, i) => d + s * (b.dims[i] ?? 0)),
      written: op === "*" ? a.written * b.written : a.written / b.written,
      unitful,
      inconsistent,
    };
  }
  const s = op === "+" ? 1 : -1;
  // A bare 0 ("8.333 m/s – 0") has any dimension.
  const matches = sameDims(a.dims, b.dims) || a.si === 0 || b.si === 0;
  return {
    si: a.si + s * b.si,
    dims: a.si === 0 ? b.dims : a.dims,
    written: a.written + s * b.written,
    unitful,
    inconsistent: inconsistent || !matches,
  };
}

function applyFunction(name: TFunction, a: IValue): IValue {
  const f = FUNCTIONS[name];
  if (name === "sqrt") {
    return { ...a, si: Math.sqrt(a.si), dims: a.dims.map((d) => d / 2), written: Math.sqrt(a.written) };
  }
  const inverse = name.startsWith("a");
  return {
    si: f(a.si),
    dims: DIMENSIONLESS,
    written: f(a.written),
    // The result of an inverse function is an angle in radians; the book writes degrees.
    unitful: inverse ? true : a.unitful,
    inconsistent: a.inconsistent || !isDimensionless(a.dims),
  };
}

const FUNCTIONS: Record<TFunction, (x: number) => number> = {
  sqrt: Math.sqrt,
  sin: Math.sin,
  cos: Math.cos,
  tan: Math.tan,
  asin: Math.asin,
  acos: Math.acos,
  atan: Math.atan,
  log: Math.log10,
  ln: Math.log,
};

/** Every node of a tree, parents before children. */
export function* nodesOf(node: TNode): Generator<TNode> {
  yield node;
  switch (node.k) {
    case "neg":
    case "fn":
      yield* nodesOf(node.a);
      break;
    case "bin":
    case "pow":
      yield* nodesOf(node.a);
      yield* nodesOf(node.b);
      break;
    default:
  }
}

/** A copy of the tree with `target` (by identity) replaced by `replacement`. */
export function replaceNode(node: TNode, target: TNode, replacement: TNode): TNode {
  if (node === target) return replacement;
  switch (node.k) {
    case "neg":
      return { k: "neg", a: replaceNode(node.a, target, replacement) };
    case "fn":
      return { ...node, a: replaceNode(node.a, target, replacement) };
    case "bin":
      return {
        ...node,
        a: replaceNode(node.a, target, replacement),
        b: replaceNode(node.b, target, replacement),
      };
    case "pow":
      return {
        k: "pow",
        a: replaceNode(node.a, target, replacement),
        b: replaceNode(node.b, target, replacement),
      };
    default:
      return node;
  }
}
