package org.tsbench.jvm.protocol;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The pipes the parent gives a worker beyond stdin, stdout and stderr, by
 * their numbers in docs/protocol.md: opened through
 * /proc/self/fd, since Java has no way to wrap a file descriptor number.
 */
public final class Parent {
    public static final int RESULT_FD = 3;
    public static final int PROGRESS_FD = 4;
    public static final int STATUS_FD = 5;

    private Parent() {
    }

    /** Whether the result's descriptor is a pipe, as a parent leaves it: run by hand, a job would write anywhere. */
    public static boolean connected() {
        try {
            return Files.readSymbolicLink(Path.of("/proc/self/fd/" + RESULT_FD)).toString().startsWith("pipe:");
        } catch (IOException e) {
            return false;
        }
    }

    public static OutputStream open(int fd) throws IOException {
        return new FileOutputStream("/proc/self/fd/" + fd);
    }

    /** The path by which another process of the same user opens this one's descriptor fd: a fork's way to the pipes. */
    public static String path(int fd) {
        return "/proc/" + ProcessHandle.current().pid() + "/fd/" + fd;
    }
}
