import { type IAnalysis, isVariable } from "./analysis";
import { type ILiteral, nodesOf, replaceNode, type TNode } from "./expression";
import { prettyUnit } from "./units";
import type { IMutation } from "./variation";

/**
 * Typical slips as edits of a step's expression tree: the ratio inverted, multiplying instead of
 * dividing, a factor or divisor left out, forgetting to square or to take the root, adding
 * instead of subtracting, a trig function in radian mode, a unit left unconverted, a lost minus
 * sign, and (last resort) the decimal point misplaced. Each names the mistake a student makes.
 */

export interface ISlip {
  mutation?: IMutation;
  /** For slips applied to the answer itself (a power of ten). */
  scale?: number;
  slip: string;
  /** Lower is tried first. */
  priority: number;
}

/** How a literal of a step reads with the new values ("180 s"). */
export type TDescribeLiteral = (step: number, lit: ILiteral) => string;

export function slipsOf(analysis: IAnalysis, describeLiteral: TDescribeLiteral): ISlip[] {
  const slips: ISlip[] = [];
  const last = analysis.steps.length - 1;
  for (let i = last; i >= 0; i--) {
    const step = analysis.steps[i]!;
    const tree = step.substitution.parsed!.node;
    const where = i === last || !step.lhs ? "" : `when finding ${step.lhs}, `;
    const priority = i === last ? 1 : 2;
    const say = (node: TNode): string | null => describeNode(node, (lit) => describeLiteral(i, lit));
    // A slip that leaves no given in the step ("4f₁" without f₁ is just 4) tempts nobody.
    const add = (target: TNode, replacement: TNode, slip: string, p = priority) =>
      bound(replaceNode(tree, target, replacement)) &&
      slips.push({
        mutation: { step: i, node: replaceNode(tree, target, replacement) },
        slip: where + slip,
        priority: p,
      });
    // Only parts that carry a given or an earlier result: "sin(π/2)" is not where students slip.
    const bound = (node: TNode) =>
      [...nodesOf(node)].some((n) => n.k === "lit" && isVariable(step.bindings.get(n.lit.id)));
    const conversion = (node: TNode) =>
      [...nodesOf(node)].some((n) => n.k === "lit" && step.bindings.get(n.lit.id)?.kind === "conversion");
    if ([...step.bindings.values()].some((b) => b.kind === "conversion")) {
      // A unit conversion step: the slip is not converting at all ("uses 37.3 km/h as if it were m/s").
      const given = step.substitution.parsed!.literals.find((l) => step.bindings.get(l.id)?.kind === "given");
      const binding = given ? step.bindings.get(given.id) : undefined;
      if (given && binding?.kind === "given" && [...step.bindings.values()].filter(isVariable).length === 1) {
        const from = analysis.givens[binding.given]!.lit.unitText;
        slips.push({
          // The given's number read in the result's unit.
          mutation: { step: i, node: { k: "lit", lit: { ...given, unit: step.result.lit.unit } } },
          slip: `${where}does not convert ${prettyUnit(from)} to ${prettyUnit(step.result.lit.unitText)}`,
          priority: 1,
        });
      }
    }

    for (const node of nodesOf(tree)) {
      if (!bound(node) || (node.k === "bin" && (conversion(node.a) || conversion(node.b)))) continue;
      if (node.k === "bin" && hasNumber(node.a) && hasNumber(node.b)) {
        const a = say(node.a);
        const b = say(node.b);
        if (node.op === "/") {
          add(
            node,
            { ...node, a: node.b, b: node.a },
            a && b ? `divides ${b} by ${a}: the ratio is inverted` : "inverts the ratio in the formula",
          );
          add(
            node,
            { ...node, op: "*" },
            b ? `multiplies by ${b} instead of dividing by it` : "multiplies instead of dividing",
          );
          add(node, node.a, b ? `forgets to divide by ${b}` : "leaves out the division");
        } else if (node.op === "*") {
          if (b && isFactor(node.b)) add(node, node.a, `leaves out the factor ${b}`);
          if (a && isFactor(node.a)) add(node, node.b, `leaves out the factor ${a}`);
        } else if (node.op === "-") {
          add(
            node,
            { ...node, op: "+" },
            b ? `adds ${b} instead of subtracting it` : "adds instead of subtracting",
          );
          if (b) add(node, node.a, `leaves out ${b}`);
        } else {
          add(
            node,
            { ...node, op: "-" },
            b ? `subtracts ${b} instead of adding it` : "subtracts instead of adding",
          );
          if (b) add(node, node.a, `leaves out ${b} in the sum`);
        }
      } else if (node.k === "pow" && hasNumber(node.a)) {
        const squared = node.b.k === "lit" && node.b.lit.value === 2;
        const a = say(node.a);
        add(
          node,
          node.a,
          squared ? `forgets to square ${a ?? "the value"}` : "leaves out the power in the formula",
        );
      } else if (node.k === "fn" && node.name === "sqrt") {
        add(node, node.a, "forgets to take the square root");
      } else if (node.k === "neg" && node !== tree && hasNumber(node.a)) {
        add(node, node.a, "drops the minus sign", 3);
      }
    }
    const trig =
      [...nodesOf(tree)].some((n) => n.k === "fn" && ["sin", "cos", "tan"].includes(n.name)) ||
      [...step.bindings.values()].some((b) => b.kind === "trig");
    if (trig) {
      slips.push({
        mutation: { step: i, radians: true },
        slip: `${where}uses the calculator in radian mode for the angle`,
        priority: 1,
      });
    }
    for (const [id, b] of step.bindings) {
      if (b.kind !== "given") continue;
      const lit = step.substitution.parsed!.literals[id]!;
      const g = analysis.givens[b.given]!;
      if (lit.unit && g.lit.unit && lit.unit.factor !== g.lit.unit.factor) {
        slips.push({
          mutation: { step: i, unconverted: id },
          slip: `${where}uses the value in ${g.lit.unitText} without converting it to ${lit.unitText}`,
          priority: 1,
        });
      }
    }
  }
  // A unit prefix converted with the wrong power of ten ("nm" as 10⁻⁶ m): a thousand times off.
  const thousands = (f: number) => Math.abs(Math.log10(f) / 3 - Math.round(Math.log10(f) / 3)) < 1e-9;
  const prefixed = analysis.givens.find(
    (g) => g.lit.unit?.prefixed && !g.fixed && thousands(g.lit.unit.factor),
  );
  if (prefixed) {
    const unit = prettyUnit(prefixed.lit.unitText);
    slips.push({
      scale: 1000,
      slip: `converts ${unit} with the wrong power of ten: 1000 times too large`,
      priority: 3,
    });
    slips.push({
      scale: 0.001,
      slip: `converts ${unit} with the wrong power of ten: 1000 times too small`,
      priority: 3,
    });
  }
  slips.push({ scale: 10, slip: "misplaces the decimal point: ten times too large", priority: 4 });
  slips.push({ scale: 0.1, slip: "misplaces the decimal point: ten times too small", priority: 4 });
  return slips;
}

function hasNumber(node: TNode): boolean {
  for (const n of nodesOf(node)) if (n.k === "lit" || n.k === "pi") return true;
  return false;
}

/** A factor a student could leave out: a number, π, a power of one, not a whole bracket of sums. */
function isFactor(node: TNode): boolean {
  if (node.k === "lit" || node.k === "pi") return true;
  if (node.k === "pow") return isFactor(node.a);
  if (node.k === "bin" && node.op === "*") return node.b.k === "unit" && isFactor(node.a);
  return false;
}

function describeNode(node: TNode, lit: (l: ILiteral) => string): string | null {
  switch (node.k) {
    case "lit":
      return lit(node.lit);
    case "pi":
      return "π";
    case "pow":
      return node.b.k === "lit" && node.b.lit.value === 2 && node.a.k === "lit"
        ? `(${lit(node.a.lit)})²`
        : null;
    case "bin":
      return node.op === "*" && node.b.k === "unit" && node.a.k === "lit" ? lit(node.a.lit) : null;
    default:
      return null;
  }
}
