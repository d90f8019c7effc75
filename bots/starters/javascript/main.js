// Monsoon starter bot in JavaScript (Node.js, no npm packages).
//
// Speaks the JSON-lines bot protocol (docs/bot-protocol.md): one JSON object per line on
// stdin, one answer per line on stdout. Diagnostics go to stderr, never stdout.
// It plays any of the four games: each request lists the legal actions, and the bot picks one
// uniformly at random. Replace chooseAction() with your own strategy.
"use strict";

const readline = require("readline");

function send(message) {
  // process.stdout.write on a pipe is asynchronous in Node but keeps order and is flushed
  // before the process exits, so one write per answer is enough.
  process.stdout.write(JSON.stringify(message) + "\n");
}

// observation: what your seat may know (docs/games/*.md); legalActions: a non-empty array of
// JSON values (strings in all four games). Return one of them unchanged.
function chooseAction(observation, legalActions) {
  return legalActions[Math.floor(Math.random() * legalActions.length)];
}

const input = readline.createInterface({ input: process.stdin, terminal: false });

input.on("line", (line) => {
  if (line.trim() === "") return;
  const message = JSON.parse(line);
  if (message.type === "start") {
    if (message.protocol !== 1) {
      console.error(`this bot speaks protocol 1, the runner ${message.protocol}`);
    }
    send({ ready: true });
  } else if (message.type === "request") {
    send({ action: chooseAction(message.observation, message.legal_actions) });
  } else if (message.type === "end") {
    console.error(`result: ranking ${JSON.stringify(message.ranking)}`);
    if (message.next === true) {
      // The worker keeps this process for another match ("matches": "many" in monsoon.json):
      // say so, then write nothing until the next "start" arrives.
      send({ done: true });
    } else {
      input.close();
    }
  }
  // Unknown message types are ignored (protocol version 1 may add optional ones).
});

input.on("close", () => process.exit(0));
