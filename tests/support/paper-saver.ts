// Child process for the "killed during paper save" fault test: saves ever-newer revisions of one
// paper in a loop and prints "saved <rev>" after each. Every string of revision K says "rev K", so
// a torn write (half old, half new) would show up as mixed revisions.
import { randomUUID } from "node:crypto";
import { getPaper, paperToUpdate, savePaper } from "@/lib/papers/store";
import { open } from "./test-db";

const [location, userId, paperId] = process.argv.slice(2);
if (!location || !userId || !paperId) {
  throw new Error("usage: paper-saver <PGlite dir | postgres:// URL> <userId> <paperId>");
}

const db = await open(location);
for (let rev = 1; ; rev++) {
  const paper = await getPaper(db, userId, paperId);
  const update = paperToUpdate(paper);
  update.title = `Paper rev ${rev}`;
  update.instructions = [`Instructions rev ${rev}`];
  for (const section of update.sections) {
    section.items = Array.from({ length: 40 }, (_, i) => ({
      id: randomUUID(),
      marks: section.marksPerQuestion ?? 1,
      question: {
        type: section.questionType === "mixed" ? "short" : section.questionType,
        bloomLevel: "Remember",
        difficulty: "easy",
        promptText: `Question ${i + 1} of ${section.name}, rev ${rev}: ${"explain the light reactions ".repeat(20)}`,
        ...(section.questionType === "mcq"
          ? { options: ["a", "b", "c", `rev ${rev}`], correctIndex: 3 }
          : {}),
        citations: [],
      },
    }));
  }
  await savePaper(db, userId, paperId, update);
  process.stdout.write(`saved ${rev}\n`);
}
