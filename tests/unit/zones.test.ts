import { describe, expect, it } from "vitest";
import { collectSentences, questionWorthyText } from "@/lib/generation/offline/knowledge/sentences";
import { htmlToMarkdown } from "@/lib/ingestion/html-to-markdown";
import {
  chunkDocumentWithZones,
  dominantZone,
  isDefinitionSentence,
  zoneDocument,
  zoneOfTitle,
  zonePassage,
  zonesOfRange,
} from "@/lib/ingestion/zones";
import { duplicateKey, zoneFactor, zoneIntent } from "@/lib/retrieval/zones";
import type { EZone } from "@/types/chunk.types";

/** The zone the classifier gives the text at `needle` (first occurrence) in a Markdown or PDF text. */
function zoneAt(text: string, needle: string, mimeType = "text/markdown"): EZone {
  const at = text.indexOf(needle);
  if (at < 0) throw new Error(`not in text: ${needle}`);
  const { runs } = zoneDocument({ mimeType, pages: [{ pageNumber: 1, text }] });
  const run = runs.find((r) => r.start <= at && at < r.end);
  if (!run) throw new Error(`no run at: ${needle}`);
  return run.zone;
}

const PHYSICS = `## 2.1 Relative Motion, Distance, and Displacement

### Defining Motion

Our study of physics opens with kinematics—the study of motion without considering its causes. Objects are in motion everywhere you look.

Figure: Are clouds a useful reference frame for airplane passengers? (Paul Brennan, Public Domain)

Your classroom can be used as a reference frame. In the classroom, the walls are not moving.

#### Looking at Motion from Two Reference Frames

In this activity you will look at motion from two reference frames. Which reference frame is correct?

- 1 basketball

Procedure
1. Work with a partner. Stand a couple of meters away from your partner.
2. Switch places with your partner, and repeat Steps 1–3.

If you are describing only your drive to school and the route is a straight line, then the distance traveled and the displacement are the same.

#### History: Galileo's Ship

The idea that a description of motion depends on the reference frame of the observer has been known for hundreds of years.

##### Vectors & Scalars

This video introduces and differentiates between vectors and scalars.

Intro to vectors & scalars | One-dimensional motion | Physics | Khan Academy

#### Calculating Average Speed

Problem: A marble rolls 5.2 m in 1.8 s. What was the marble's average speed?

###### Strategy

We know the distance the marble travels, 5.2 m, and the time interval, 1.8 s.

Solution: v_avg = distance/time = (5.2 m)/(1.8 s) = 2.9 m/s

#### Velocity

The vector version of speed is velocity. A quantity that has both magnitude and direction is called a vector.

##### Tug of War

In this simulation, you will first explore net force by placing blue people on the left side of a tug-of-war rope. Hit the "Go!" button to start the match.

##### Particle Physicist

Are you interested in how the universe works? A particle physicist studies the smallest pieces of matter.

### Section Summary

- Displacement is the difference in the initial and final positions of an object.
`;

const BIOLOGY = `## 5.2 Passive Transport

#### Link to Learning

Visit this site to see animations of the membranes' fluidity and mosaic quality.

Animals have an additional membrane constituent that assists in maintaining fluidity.

#### Visual Connection

Figure: Electrochemical gradients arise from the combined effects of concentration gradients and electrical gradients. (credit: "Synaptitude"/Wikimedia Commons)

Injecting a potassium solution into a person's blood is lethal. Why do you think a potassium solution injection is lethal?

#### Career Connection

Immunologist. The variations in peripheral proteins and carbohydrates that affect a cell's recognition sites are of prime interest in immunology.

### Osmosis

Osmosis is the movement of free water molecules through a semipermeable membrane according to the water's concentration gradient across the membrane.
`;

// An Indian board (NCERT-style) chapter as PDF text: no Markdown, box titles as lines.
const NCERT_PDF = `8.2 MEASURING THE RATE OF MOTION

The distance covered by an object in unit time is called its speed. We use the symbol v for speed.

Activity 8.3
Take a toy car and let it roll down a slope.
Mark its position every two seconds on the floor.
Note your observations in a table.

Example 8.1 An object travels 16 m in 4 s and then another 16 m in 2 s. What is the average speed of the object?
Solution: Total distance travelled = 16 m + 16 m = 32 m. Total time taken = 4 s + 2 s = 6 s. Average speed = 32 m / 6 s = 5.33 m/s.

Fig. 8.4: Distance-time graph of a car moving with uniform speed

Do you know?
The speed of light in vacuum is the highest speed attainable in the universe.

Intext Questions
1. What does the odometer of an automobile measure?
2. What does the path of an object look like when it is in uniform motion?

Velocity is the speed of an object moving in a definite direction.

EXERCISES
1. An athlete completes one round of a circular track of diameter 200 m in 40 s. What will be the distance covered?
(a) 200 m
(b) 400 m
(c) 628 m
(d) 1256 m
`;

describe("zone classifier on textbook snippets", () => {
  it.each([
    ["Our study of physics opens", "definition"],
    ["Objects are in motion everywhere", "exposition"],
    ["Figure: Are clouds", "caption"],
    ["Your classroom can be used", "exposition"],
    ["In this activity you will look", "activity"],
    ["1. Work with a partner", "activity"],
    ["If you are describing only your drive", "exposition"],
    ["The idea that a description of motion", "feature_box"],
    ["This video introduces", "media"],
    ["Intro to vectors & scalars", "media"],
    ["Problem: A marble", "worked_example"],
    ["We know the distance the marble", "worked_example"],
    ["Solution: v_avg", "worked_example"],
    ["The vector version of speed", "exposition"],
    ["A quantity that has both magnitude and direction is called a vector", "definition"],
    ["In this simulation, you will first explore", "media"],
    ["A particle physicist studies", "feature_box"],
    ["- Displacement is the difference", "summary"],
  ] as const)("physics (OpenStax Markdown): %s → %s", (needle, zone) => {
    expect(zoneAt(PHYSICS, needle)).toBe(zone);
  });

  it.each([
    ["Visit this site to see animations", "media"],
    ["Animals have an additional membrane", "exposition"],
    ["Figure: Electrochemical gradients", "caption"],
    ["Injecting a potassium solution", "book_question"],
    ["Immunologist. The variations", "feature_box"],
    ["Osmosis is the movement of free water", "definition"],
  ] as const)("biology (OpenStax Markdown): %s → %s", (needle, zone) => {
    expect(zoneAt(BIOLOGY, needle)).toBe(zone);
  });

  it.each([
    ["The distance covered by an object in unit time is called its speed", "definition"],
    ["Take a toy car", "activity"],
    ["Mark its position", "activity"],
    ["Example 8.1", "worked_example"],
    ["Total distance travelled", "worked_example"],
    ["Fig. 8.4", "caption"],
    ["The speed of light in vacuum", "feature_box"],
    ["1. What does the odometer", "book_question"],
    ["Velocity is the speed of an object moving in a definite direction", "definition"],
    ["(b) 400 m", "book_question"],
  ] as const)("Indian board PDF text: %s → %s", (needle, zone) => {
    expect(zoneAt(NCERT_PDF, needle, "application/pdf")).toBe(zone);
  });

  it("reads DOCX (mammoth's HTML, rendered as Markdown) like Markdown", () => {
    const html =
      "<h2>8.1 Motion</h2><p>Motion is the change in position of an object with time.</p>" +
      "<h3>Activity 8.1</h3><ol><li>Take a toy car and let it roll down a slope.</li><li>Mark its position every two seconds.</li></ol>" +
      "<h3>Do You Know?</h3><p>The fastest train in the world runs in Shanghai.</p>" +
      "<p>Figure 8.2: A toy car rolling down a slope.</p>" +
      "<h3>Exercises</h3><ol><li>What is the SI unit of speed?</li><li>Define displacement.</li></ol>";
    const text = htmlToMarkdown(html);
    const docx = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
    expect(zoneAt(text, "Motion is the change", docx)).toBe("definition");
    expect(zoneAt(text, "Take a toy car", docx)).toBe("activity");
    expect(zoneAt(text, "The fastest train", docx)).toBe("feature_box");
    expect(zoneAt(text, "Figure 8.2", docx)).toBe("caption");
    expect(zoneAt(text, "What is the SI unit", docx)).toBe("book_question");
  });

  it("reads box titles of both traditions", () => {
    expect(zoneOfTitle("Link to Learning")).toBe("media");
    expect(zoneOfTitle("Watch Physics")).toBe("media");
    expect(zoneOfTitle("Snap Lab")).toBe("activity");
    expect(zoneOfTitle("Activity 2.1")).toBe("activity");
    expect(zoneOfTitle("Do You Know?")).toBe("feature_box");
    expect(zoneOfTitle("Everyday Connection")).toBe("feature_box");
    expect(zoneOfTitle("Intext Questions")).toBe("book_question");
    expect(zoneOfTitle("Exercises")).toBe("book_question");
    expect(zoneOfTitle("Check Your Understanding")).toBe("book_question");
    expect(zoneOfTitle("Section Summary")).toBe("summary");
    expect(zoneOfTitle("Key Terms")).toBe("glossary");
    expect(zoneOfTitle("Example 2.3")).toBe("worked_example");
    expect(zoneOfTitle("Health Physicist")).toBe("feature_box");
    expect(zoneOfTitle("Passive Transport")).toBeNull();
    expect(zoneOfTitle("Problem-Solving Steps")).toBeNull();
  });

  it("tells definitions from statements", () => {
    expect(isDefinitionSentence("A vector is a quantity that has both magnitude and direction.")).toBe(true);
    expect(isDefinitionSentence("This process is known as osmosis.")).toBe(true);
    expect(isDefinitionSentence("Earth is often used as a reference frame.")).toBe(false);
    expect(isDefinitionSentence("It is the rate of change of velocity.")).toBe(false);
    expect(isDefinitionSentence("What is the rate of change of velocity?")).toBe(false);
  });

  it("gives every chunk a dominant zone and spans that tile its content", () => {
    const chunks = chunkDocumentWithZones(
      { mimeType: "text/markdown", pages: [{ pageNumber: 1, text: PHYSICS }] },
      { targetTokens: 60, maxTokens: 90, overlapTokens: 0 },
    );
    expect(chunks.length).toBeGreaterThan(3);
    for (const c of chunks) {
      expect(c.zone).toBeDefined();
      const spans = c.zoneSpans!;
      expect(spans.length).toBeGreaterThan(0);
      for (const [s, e] of spans) {
        expect(s).toBeGreaterThanOrEqual(0);
        expect(e).toBeLessThanOrEqual(c.content.length);
        expect(e).toBeGreaterThan(s);
      }
    }
    const activity = chunks.find((c) => c.content.includes("Work with a partner"));
    expect(activity?.zone).toBe("activity");
    const example = chunks.find((c) => c.content.includes("Problem: A marble"));
    expect(example?.zone).toBe("worked_example");
  });

  it("classifies a stored passage from its own text and section path", () => {
    const passage =
      "In this simulation, you will drag the vectors. Click the Show Sum box to display the resultant.";
    expect(zonePassage(passage, "Chapter 5 > 5.1 Vector Addition").zone).toBe("media");
    const boxed = "Forensic science is the application of science to answer questions related to the law.";
    expect(zonePassage(boxed, "Chapter 1 > 1.2 Themes > Career Connection").zone).toBe("feature_box");
  });

  it("files a chunk under the zone holding most of it, definitions with exposition", () => {
    expect(
      dominantZone([
        [0, 100, "exposition"],
        [100, 130, "caption"],
      ]),
    ).toBe("exposition");
    expect(
      dominantZone([
        [0, 40, "exposition"],
        [40, 200, "activity"],
      ]),
    ).toBe("activity");
    expect(
      dominantZone([
        [0, 60, "exposition"],
        [60, 100, "definition"],
      ]),
    ).toBe("definition");
    const { spans } = zonesOfRange(
      [
        { start: 0, end: 10, zone: "exposition" },
        { start: 11, end: 20, zone: "exposition" },
        { start: 21, end: 30, zone: "media" },
      ],
      5,
      25,
    );
    expect(spans).toEqual([
      [0, 15, "exposition"],
      [16, 20, "media"],
    ]);
  });
});

describe("zone preferences of a query", () => {
  it("pushes side material down unless asked for", () => {
    const plain = zoneIntent("What is displacement?");
    expect(zoneFactor("exposition", plain)).toBe(1);
    expect(zoneFactor("worked_example", plain)).toBe(1);
    expect(zoneFactor("activity", plain)).toBeLessThan(1);
    expect(zoneFactor("media", plain)).toBeLessThan(1);
    expect(zoneFactor("caption", plain)).toBeLessThan(1);
    expect(zoneFactor("book_question", plain)).toBeLessThan(1);
  });

  it("lifts what the query asks for", () => {
    expect(zoneFactor("activity", zoneIntent("an activity on reference frames"))).toBeGreaterThan(1);
    expect(zoneFactor("media", zoneIntent("a video about vectors and scalars"))).toBeGreaterThan(1);
    expect(zoneFactor("book_question", zoneIntent("questions on uniform motion"))).toBeGreaterThan(1);
    expect(zoneFactor("book_question", zoneIntent("exercise questions from chapter 8"))).toBeGreaterThan(1);
  });

  it("reads a request to write questions as a request for the lesson", () => {
    const intent = zoneIntent("Generate 5 questions on osmosis");
    expect(zoneFactor("book_question", intent)).toBeLessThan(1);
    expect(zoneFactor("exposition", intent)).toBe(1);
  });

  it("compares text for duplicates without case, spacing or punctuation", () => {
    expect(duplicateKey("Osmosis is  the movement of water.")).toBe(
      duplicateKey("osmosis is the movement of water"),
    );
    expect(duplicateKey("Osmosis")).not.toBe(duplicateKey("Diffusion"));
  });
});

describe("question-worthy sentences for the offline generator", () => {
  const chunk = {
    documentId: "00000000-0000-4000-8000-000000000001",
    chunkIndex: 0,
    title: "Physics",
    sectionPath: "Chapter 2 > 2.1 Relative Motion",
    content: `Displacement is the change in position of an object. It has a direction.

Figure: The total distance that your car travels is 10 km, but the total displacement is 0.

#### Looking at Motion

In this activity you will look at motion from two reference frames.

Procedure
1. Work with a group of four, as directed by your teacher.

##### Moving Man

In this simulation, hit the Go! button to start the man walking.`,
  };

  it("cuts captions, lab steps and media instructions, keeping the lesson", () => {
    const text = questionWorthyText(chunk);
    expect(text).toContain("Displacement is the change in position of an object.");
    expect(text).not.toContain("total distance that your car travels");
    expect(text).not.toContain("Work with a group of four");
    expect(text).not.toContain("Go! button");
    const sentences = collectSentences([chunk]).map((s) => s.text);
    expect(sentences).toContain("Displacement is the change in position of an object.");
    expect(sentences.some((s) => /group of four|Go! button|car travels/.test(s))).toBe(false);
  });

  it("uses the zones that come with the passage", () => {
    const content = "Kinetic energy is the energy of motion. Hit the Go! button.";
    const spans: [number, number, EZone][] = [
      [0, 39, "exposition"],
      [40, content.length, "exposition"],
    ];
    // Stored zones win over the on-the-fly reading.
    expect(questionWorthyText({ ...chunk, content, zoneSpans: spans })).toBe(content);
  });
});
