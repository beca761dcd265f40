package lockscope.interop;

import java.util.HashMap;
import java.util.Map;

/**
 * One request line: a flat JSON object of strings, numbers and booleans, which is all the tests send. Read by hand so
 * the driver needs nothing beside Redisson (Redisson 4 no longer brings Jackson).
 */
final class Request {
    private final Map<String, String> fields = new HashMap<>();

    static Request parse(String line) {
        Request r = new Request();
        int i = skip(line, 0);
        expect(line, i++, '{');
        while (true) {
            i = skip(line, i);
            if (line.charAt(i) == '}')
                return r;
            StringBuilder key = new StringBuilder();
            i = string(line, i, key);
            i = skip(line, i);
            expect(line, i++, ':');
            i = skip(line, i);
            StringBuilder value = new StringBuilder();
            if (line.charAt(i) == '"') {
                i = string(line, i, value);
            } else {
                while (i < line.length() && ",} \t".indexOf(line.charAt(i)) < 0)
                    value.append(line.charAt(i++));
            }
            r.fields.put(key.toString(), value.toString());
            i = skip(line, i);
            if (line.charAt(i) == ',')
                ++i;
        }
    }

    Field path(String key) {
        return new Field(fields.get(key));
    }

    private static int skip(String s, int i) {
        while (i < s.length() && Character.isWhitespace(s.charAt(i)))
            ++i;
        if (i >= s.length())
            throw new IllegalArgumentException("truncated request: " + s);
        return i;
    }

    private static void expect(String s, int i, char c) {
        if (s.charAt(i) != c)
            throw new IllegalArgumentException("expected '" + c + "' at " + i + ": " + s);
    }

    private static int string(String s, int i, StringBuilder out) {
        expect(s, i++, '"');
        while (s.charAt(i) != '"') {
            char c = s.charAt(i++);
            if (c != '\\') {
                out.append(c);
                continue;
            }
            char e = s.charAt(i++);
            switch (e) {
            case 'n' -> out.append('\n');
            case 't' -> out.append('\t');
            case 'r' -> out.append('\r');
            case 'b' -> out.append('\b');
            case 'f' -> out.append('\f');
            case 'u' -> {
                out.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                i += 4;
            }
            default -> out.append(e);
            }
        }
        return i + 1;
    }

    record Field(String text) {
        String asText() {
            return asText("");
        }

        String asText(String otherwise) {
            return text == null ? otherwise : text;
        }

        long asLong() {
            return asLong(0);
        }

        long asLong(long otherwise) {
            return text == null || text.isEmpty() ? otherwise : Long.parseLong(text);
        }

        int asInt() {
            return (int) asLong(0);
        }
    }
}
