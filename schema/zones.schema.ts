import { z } from "zod";
import { ZONES } from "@/types/chunk.types";

/** What a passage is: the lesson (exposition, definition, worked example) or material around it. */
export const ZoneSchema = z.enum(ZONES).meta({
  description:
    "What the passage is: exposition, definition, worked_example (the lesson) or activity, media, caption, feature_box, book_question, summary, glossary",
});

/** A run of a passage's text with one zone: [start, end, zone], offsets into its content. */
export const ZoneSpanSchema = z.tuple([z.number().int(), z.number().int(), ZoneSchema]);
