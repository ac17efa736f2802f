package org.tsbench.jvm.protocol;

/** How a failure reads in a result's errors and on stderr. */
public final class Errors {
    private Errors() {
    }

    /** An exception's message on one line, its class when it has none. */
    public static String oneLine(Throwable t) {
        String m = t.getMessage();
        if (m == null || m.isBlank()) {
            m = t.getClass().getSimpleName();
        } else if (!(t instanceof IllegalArgumentException || t instanceof IllegalStateException)) {
            m = t.getClass().getSimpleName() + ": " + m;
        }
        return m.replace('\n', ' ');
    }
}
