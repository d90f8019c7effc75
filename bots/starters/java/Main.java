// Monsoon starter bot in Java, standard library only (no external jar).
//
// Speaks the JSON-lines bot protocol (docs/bot-protocol.md): one JSON object per line on stdin,
// one answer per line on stdout. Diagnostics go to stderr, never stdout. It plays any of the
// four games: each request lists the legal actions, and the bot picks one uniformly at random.
// Replace chooseAction() with your own strategy.
//
// The JDK has no JSON parser: a small scanner finds the top-level fields the bot needs and keeps
// every value as its raw JSON text, so an action is sent back exactly as it arrived.
//
// Build: javac --release 17 -d classes Main.java && jar --create --file mybot.jar --main-class Main -C classes .

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

public final class Main {
    private static final Random RANDOM = new Random();

    /**
     * observation: the raw JSON of what your seat may know (docs/games/*.md); legalActions: the
     * raw JSON of each legal action (never empty). Return one of them unchanged.
     */
    static String chooseAction(String observation, List<String> legalActions) {
        return legalActions.get(RANDOM.nextInt(legalActions.size()));
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in =
                new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        // Flush by hand after every answer: stdout is a pipe, and a buffered answer never
        // reaches the runner.
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isBlank()) {
                continue;
            }
            String type = Json.field(line, "type");
            if ("\"start\"".equals(type)) {
                if (!"1".equals(Json.field(line, "protocol"))) {
                    System.err.println(
                            "this bot speaks protocol 1, the runner " + Json.field(line, "protocol"));
                }
                out.print("{\"ready\": true}\n");
                out.flush();
            } else if ("\"request\"".equals(type)) {
                List<String> legal = Json.items(Json.field(line, "legal_actions"));
                String action = chooseAction(Json.field(line, "observation"), legal);
                out.print("{\"action\": " + action + "}\n");
                out.flush();
            } else if ("\"end\"".equals(type)) {
                System.err.println("result: ranking " + Json.field(line, "ranking"));
                if (!"true".equals(Json.field(line, "next"))) {
                    break;
                }
                // The worker keeps this process for another match ("matches": "many" in
                // monsoon.json): say so, then write nothing until the next "start" arrives.
                out.print("{\"done\": true}\n");
                out.flush();
            }
            // Unknown message types are ignored (protocol version 1 may add optional ones).
        }
    }

    /** Just enough JSON for the protocol: raw text of top-level fields and array elements. */
    static final class Json {
        private Json() {}

        static int skipSpace(String text, int at) {
            while (at < text.length() && " \t\r\n".indexOf(text.charAt(at)) >= 0) {
                at++;
            }
            return at;
        }

        /** The index just past the JSON value starting at {@code at} (nested to any depth). */
        static int skipValue(String text, int at) {
            at = skipSpace(text, at);
            if (at >= text.length()) {
                throw new IllegalArgumentException("unexpected end of JSON");
            }
            char first = text.charAt(at);
            if (first == '"') {
                for (at++; at < text.length(); at++) {
                    char c = text.charAt(at);
                    if (c == '\\') {
                        at++; // the escaped character (\\uXXXX needs nothing more)
                    } else if (c == '"') {
                        return at + 1;
                    }
                }
                throw new IllegalArgumentException("unterminated JSON string");
            }
            if (first == '[' || first == '{') {
                char close = first == '[' ? ']' : '}';
                at = skipSpace(text, at + 1);
                if (at < text.length() && text.charAt(at) == close) {
                    return at + 1;
                }
                while (true) {
                    if (first == '{') {
                        at = skipSpace(text, skipValue(text, at));
                        expect(text, at, ':');
                        at++;
                    }
                    at = skipSpace(text, skipValue(text, at));
                    if (at < text.length() && text.charAt(at) == close) {
                        return at + 1;
                    }
                    expect(text, at, ',');
                    at++;
                }
            }
            int end = at;
            while (end < text.length() && ",}] \t\r\n".indexOf(text.charAt(end)) < 0) {
                end++;
            }
            if (end == at) {
                throw new IllegalArgumentException("expected a JSON value");
            }
            return end;
        }

        private static void expect(String text, int at, char wanted) {
            if (at >= text.length() || text.charAt(at) != wanted) {
                throw new IllegalArgumentException("expected '" + wanted + "' in JSON");
            }
        }

        /**
         * The raw JSON of the top-level field {@code key} of an object, or null when absent.
         * Keys are compared as written: the protocol's keys contain no escapes.
         */
        static String field(String object, String key) {
            String quoted = "\"" + key + "\"";
            int at = skipSpace(object, 0);
            expect(object, at, '{');
            at = skipSpace(object, at + 1);
            if (at < object.length() && object.charAt(at) == '}') {
                return null;
            }
            while (true) {
                int keyEnd = skipValue(object, at);
                boolean wanted = object.substring(at, keyEnd).equals(quoted);
                at = skipSpace(object, keyEnd);
                expect(object, at, ':');
                int valueStart = skipSpace(object, at + 1);
                int valueEnd = skipValue(object, valueStart);
                if (wanted) {
                    return object.substring(valueStart, valueEnd);
                }
                at = skipSpace(object, valueEnd);
                if (at >= object.length() || object.charAt(at) != ',') {
                    return null;
                }
                at = skipSpace(object, at + 1);
            }
        }

        /** The raw JSON text of each element of an array. */
        static List<String> items(String array) {
            List<String> result = new ArrayList<>();
            int at = skipSpace(array, 0);
            expect(array, at, '[');
            at = skipSpace(array, at + 1);
            if (at < array.length() && array.charAt(at) == ']') {
                return result;
            }
            while (true) {
                int end = skipValue(array, at);
                result.add(array.substring(at, end));
                at = skipSpace(array, end);
                if (at >= array.length() || array.charAt(at) != ',') {
                    return result;
                }
                at = skipSpace(array, at + 1);
            }
        }
    }
}
