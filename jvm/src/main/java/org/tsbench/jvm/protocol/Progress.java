package org.tsbench.jvm.protocol;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A step's progress, as the Go child draws it (cmd/benchmark-storage's
 * progress.go): lines for people on the progress pipe, a redrawn bar or
 * log lines, and one JSON status line per change on the status pipe for
 * the parent. A ticker thread reports done counts, never the timed loop.
 */
public final class Progress {
    private static final long BAR_INTERVAL_NS = 200_000_000L;
    private static final long LOG_INTERVAL_NS = 10_000_000_000L;
    private static final long TICK_MS = 200;

    private final OutputStream out;
    private final OutputStream status;
    private final boolean bar;
    private final String engine;
    /** What steps count: "points", or "ops" for the micro benchmarks. */
    private final String unit;
    private String step;
    private long total;
    private long done;
    private long start;
    private long drawn;

    public Progress(OutputStream out, OutputStream status, String mode, String engine, String unit) {
        this.out = out;
        this.status = status;
        this.bar = "bar".equals(mode);
        this.engine = engine;
        this.unit = unit;
    }

    /** Runs body as step label of total ops, reporting done from a ticker thread. */
    public <T> T step(String label, long total, AtomicLong done, Body<T> body) throws Exception {
        begin(label, total);
        Thread ticker = new Thread(() -> {
            try {
                while (true) {
                    Thread.sleep(TICK_MS);
                    update(done.get());
                }
            } catch (InterruptedException e) {
                // the step ended
            }
        }, "progress");
        ticker.setDaemon(true);
        ticker.start();
        try {
            return body.run();
        } finally {
            ticker.interrupt();
            ticker.join();
            update(done.get());
            end();
        }
    }

    public interface Body<T> {
        T run() throws Exception;
    }

    synchronized void begin(String label, long total) {
        step = label;
        this.total = total;
        done = 0;
        start = System.nanoTime();
        drawn = start;
        sendStatus();
        if (bar) {
            drawBar();
        } else if (total > 0) {
            write(engine + ": " + step + ": started (" + Count.format(total) + " " + unit + ")\n");
        } else {
            write(engine + ": " + step + ": started\n");
        }
    }

    synchronized void update(long d) {
        done = d;
        sendStatus();
        long now = System.nanoTime();
        if (bar) {
            if (now - drawn >= BAR_INTERVAL_NS) {
                drawn = now;
                drawBar();
            }
        } else if (now - drawn >= LOG_INTERVAL_NS) {
            drawn = now;
            write(engine + ": " + step + ": " + describe(now) + "\n");
        }
    }

    synchronized void end() {
        long elapsed = System.nanoTime() - start;
        String line = engine + ": " + step + ": done in " + Count.duration(elapsed);
        if (total > 0 && done > 0 && elapsed > 0) {
            line += " (" + Count.approx(done / (elapsed / 1e9)) + " " + unit + "/s)";
        }
        step = "";
        write((bar ? "\r\u001b[K" : "") + line + "\n");
    }

    /** A status line with the result so far. */
    private record Partial(@JsonProperty("step") String step, @JsonProperty("done") long done,
            @JsonProperty("total") long total, @JsonProperty("partial") Result partial) {
    }

    /** Sends the result so far on the status pipe, for a parent whose child never finishes. */
    public synchronized void partial(Result result) {
        try {
            status.write(Json.MAPPER.writeValueAsBytes(new Partial(step == null ? "" : step, done, total, result)));
            status.write('\n');
            status.flush();
        } catch (IOException e) {
            // As in sendStatus.
        }
    }

    private void drawBar() {
        String b = "";
        if (total > 0 && done > 0) {
            int filled = (int) (Math.min(done, total) * 24 / total);
            b = "[" + "=".repeat(filled) + " ".repeat(24 - filled) + "] ";
        }
        write("\r\u001b[K" + engine + ": " + step + ": " + b + describe(System.nanoTime()));
    }

    private String describe(long now) {
        long elapsed = now - start;
        if (total <= 0 || done <= 0 || elapsed <= 0) {
            return "running for " + Count.duration(elapsed);
        }
        double rate = done / (elapsed / 1e9);
        long eta = (long) (Math.max(total - done, 0) / rate * 1e9);
        return String.format("%3d%% %s/%s %s/s ETA %s", done * 100 / total, Count.approx(done), Count.approx(total),
                Count.approx(rate), Count.duration(eta));
    }

    private void sendStatus() {
        String line = "{\"step\":" + Json.quote(step) + ",\"done\":" + done + ",\"total\":" + total + "}\n";
        try {
            status.write(line.getBytes(StandardCharsets.UTF_8));
            status.flush();
        } catch (IOException e) {
            // The parent stopped listening; the result still goes to its pipe.
        }
    }

    private void write(String s) {
        try {
            out.write(s.getBytes(StandardCharsets.UTF_8));
            out.flush();
        } catch (IOException e) {
            // As above: progress is for people.
        }
    }
}
