package lockscope.interop;

/** One reply or event line: a flat JSON object, its fields in the order they were put. */
final class Reply {
    private final StringBuilder json = new StringBuilder("{");

    void put(String key, String value) {
        field(key);
        quote(value);
    }

    void put(String key, long value) {
        field(key);
        json.append(value);
    }

    void put(String key, boolean value) {
        field(key);
        json.append(value);
    }

    @Override
    public String toString() {
        return json + "}";
    }

    private void field(String key) {
        if (json.length() > 1)
            json.append(',');
        quote(key);
        json.append(':');
    }

    private void quote(String s) {
        json.append('"');
        for (int i = 0; i < s.length(); ++i) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\')
                json.append('\\').append(c);
            else if (c < 0x20)
                json.append(String.format("\\u%04x", (int) c));
            else
                json.append(c);
        }
        json.append('"');
    }
}
