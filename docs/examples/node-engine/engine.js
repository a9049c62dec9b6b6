#!/usr/bin/env node
// A minimal Hakka Cards engine adapter for the conformance protocol, version 2.
//
// It answers `hello`, `pattern` and `stop`, and says `unsupported` to every
// other request. It declares only the `pattern` capability, so the runner never
// sends it another: every scenario needing a whole hand is skipped, with the reason.
// Its patterns follow the default options of the rulebook:
//
//   PAT-1 / D18  a Run is 3+ cards of one suit with consecutive numbers (never Wan Sin)
//   PAT-3 / D17  a Set is 3+ cards of one number (Wan Sin never joins a Set of 1s)
//   PAT-6        a Single is one card
//   PAT-2 / D15  Runs compare by suit first (Sup > Gon > Zok > Sin), then top card
//   PAT-4 / D16  Sets compare by number: 2 < 3 < ... < 8 < 1 < 9
//   PAT-6 / D7   a Single beats only a higher card of the same suit
//   ELD-3        an Elder played as a Single cannot be beaten
//   ELD-6        Sup1, Sin1 and Wan Sin never beat another Single
//
// Run it with:  hakka-conformance run --engine "cmd:node docs/examples/node-engine/engine.js" --area PAT
"use strict";

const readline = require("node:readline");

const PROTOCOL = 2;
const SUITS = ["Sup", "Gon", "Zok", "Sin"]; // highest first (CARDS-2)
const SHORT = { s: "Sup", g: "Gon", z: "Zok", n: "Sin" };

// The options this engine follows: the defaults of the decisions that patterns depend on.
const OPTIONS = {
  D7: "same-suit",
  D15: "suit-then-top",
  D16: "below-nines",
  D17: "no",
  D18: "no",
};

class ProtocolError extends Error {
  constructor(kind, message, rule) {
    super(message);
    this.kind = kind;
    this.rule = rule;
  }
}

// ---- cards ---------------------------------------------------------------

// One card's text (long or short form, any case) -> {name, suit, number}.
// suit is 0 (Sup) .. 3 (Sin), or null for Wan Sin, whose number is 1 (CARDS-3).
function parseCard(text) {
  const t = text.trim().toLowerCase();
  if (t === "wansin" || t === "w") return { name: "WanSin", suit: null, number: 1 };
  const m = /^(sup|gon|zok|sin|s|g|z|n)([1-9])$/.exec(t);
  if (!m) {
    throw new ProtocolError("malformed", `${JSON.stringify(text)} is not a card`, "CARDS-1");
  }
  const suitName = m[1].length === 1 ? SHORT[m[1]] : m[1][0].toUpperCase() + m[1].slice(1);
  return { name: `${suitName}${m[2]}`, suit: SUITS.indexOf(suitName), number: Number(m[2]) };
}

// A space-separated card list -> array of cards. A card named twice is
// malformed, never "not a pattern": no deal holds a card twice (spec/README.md).
function parseCards(text) {
  if (typeof text !== "string") throw new ProtocolError("malformed", "a card list must be a string");
  const cards = text.split(/\s+/).filter((s) => s.length > 0).map(parseCard);
  const names = new Set(cards.map((c) => c.name));
  if (names.size !== cards.length) {
    throw new ProtocolError("malformed", `a card is named twice in ${JSON.stringify(text)}`, "CARDS-1");
  }
  return cards;
}

// The Elders at the start of a hand (ELD-1).
const INITIAL_ELDERS = "Sup9 Gon9 Zok9 Sin9 Sup1 Sin1 WanSin";

// ---- patterns ------------------------------------------------------------

// "run" | "set" | "single" | "none"  (PAT-1, PAT-3, PAT-7)
function classify(cards) {
  if (cards.length === 1) return "single";
  if (cards.length < 3) return "none";
  if (cards.some((c) => c.suit === null)) return "none"; // D17 no, D18 no: Wan Sin joins nothing
  const sameSuit = cards.every((c) => c.suit === cards[0].suit);
  if (sameSuit) {
    const numbers = cards.map((c) => c.number).sort((a, b) => a - b);
    const consecutive = numbers.every((n, i) => i === 0 || n === numbers[i - 1] + 1);
    return consecutive ? "run" : "none";
  }
  const sameNumber = cards.every((c) => c.number === cards[0].number);
  return sameNumber ? "set" : "none";
}

// Rank of a Set's number under D16 below-nines: 2 < 3 < ... < 8 < 1 < 9.
function setRank(number) {
  if (number === 1) return 8.5;
  return number;
}

// Does `challenger`, played next in the round, beat `current` (the pattern winning so far)?
function beats(current, challenger, elders) {
  const kind = classify(current);
  if (kind === "none" || kind !== classify(challenger) || current.length !== challenger.length) {
    return false;
  }
  if (kind === "run") {
    const cur = current[0].suit;
    const chal = challenger[0].suit;
    if (chal !== cur) return chal < cur; // a lower index is a higher suit (PAT-2)
    const top = (cards) => Math.max(...cards.map((c) => c.number));
    return top(challenger) > top(current);
  }
  if (kind === "set") {
    return setRank(challenger[0].number) > setRank(current[0].number); // PAT-4
  }
  // Singles.
  const [cur] = current;
  const [chal] = challenger;
  if (elders.has(cur.name)) return false; // ELD-3: an Elder Single is unbeatable
  if (["Sup1", "Sin1", "WanSin"].includes(chal.name)) return false; // ELD-6
  return chal.suit !== null && chal.suit === cur.suit && chal.number > cur.number; // PAT-6, D7
}

// ---- requests ------------------------------------------------------------

function checkOptions(options) {
  for (const [decision, option] of Object.entries(options || {})) {
    if (decision in OPTIONS) {
      if (OPTIONS[decision] !== option) {
        throw new ProtocolError("unsupported", `this engine only follows ${decision}=${OPTIONS[decision]}`, decision);
      }
    }
    // Decisions that do not affect patterns are irrelevant to a pattern request.
  }
}

function handle(request) {
  switch (request.cmd) {
    case "hello":
      if (request.protocol !== PROTOCOL) {
        throw new ProtocolError("unsupported", `this engine speaks protocol ${PROTOCOL}`);
      }
      return {
        ok: true,
        protocol: PROTOCOL,
        engine: { name: "node-example", version: "0.1.0", language: "javascript" },
        options: OPTIONS,
        configurable: false,
        capabilities: ["pattern"],
      };
    case "pattern": {
      checkOptions(request.options);
      if (request.classify !== undefined) {
        return { ok: true, pattern: classify(parseCards(request.classify)) };
      }
      const elders = new Set(parseCards(request.elders ?? INITIAL_ELDERS).map((c) => c.name));
      const current = parseCards(request.current);
      const challenger = parseCards(request.challenger);
      return { ok: true, beats: beats(current, challenger, elders) };
    }
    case "stop":
      return { ok: true };
    default:
      throw new ProtocolError("unsupported", `this engine does not implement ${JSON.stringify(request.cmd)}`);
  }
}

// ---- the line-delimited JSON loop ----------------------------------------

function errorResponse(kind, message, rule) {
  const error = { kind, message };
  if (rule) error.rule = rule;
  return { ok: false, error };
}

const lines = readline.createInterface({ input: process.stdin, terminal: false });
let stopped = false;
lines.on("line", (line) => {
  if (stopped || line.trim() === "") return;
  let request;
  let response;
  try {
    request = JSON.parse(line);
    response = handle(request);
  } catch (err) {
    if (err instanceof ProtocolError) {
      response = errorResponse(err.kind, err.message, err.rule);
    } else if (err instanceof SyntaxError) {
      response = errorResponse("malformed", `not JSON: ${err.message}`);
    } else {
      response = errorResponse("internal", String(err && err.stack ? err.stack : err));
    }
  }
  // Exactly one line of JSON per request, nothing else on stdout.
  const stopping = request && request.cmd === "stop";
  process.stdout.write(JSON.stringify(response) + "\n", () => {
    if (stopping) process.exit(0);
  });
  if (stopping) {
    stopped = true;
    lines.close();
  }
});
