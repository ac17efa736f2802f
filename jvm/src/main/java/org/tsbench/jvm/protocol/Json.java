package org.tsbench.jvm.protocol;

import com.fasterxml.jackson.databind.ObjectMapper;

/** The one JSON mapper of the worker. */
public final class Json {
    public static final ObjectMapper MAPPER = new ObjectMapper();

    private Json() {
    }

    static String quote(String s) {
        try {
            return MAPPER.writeValueAsString(s == null ? "" : s);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
