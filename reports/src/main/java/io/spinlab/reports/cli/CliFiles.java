package io.spinlab.reports.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.CharacterCodingException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The checks every command makes on the files it is given, before it does any work, so that a
 * bad path is a one-line error naming the option and what is wrong with it, never a stack trace
 * after minutes of simulation.
 */
final class CliFiles {

    private CliFiles() {
    }

    /**
     * Makes sure {@code file} can be written as the output of {@code option}: not empty, not a
     * directory, not under a regular file, and writable (its directories are created and the file
     * is opened for writing once, so a write that would fail fails now).
     *
     * @throws IllegalArgumentException saying what is wrong
     */
    static void checkOutputFile(String option, Path file) {
        if (file == null || file.toString().isBlank()) {
            throw new IllegalArgumentException(option + " must name a file; got an empty path");
        }
        if (Files.isDirectory(file)) {
            throw new IllegalArgumentException(option + " " + file + " is a directory; give a file path");
        }
        Path parent = file.toAbsolutePath().getParent();
        for (Path above = parent; above != null; above = above.getParent()) {
            if (Files.exists(above) && !Files.isDirectory(above)) {
                throw new IllegalArgumentException(option + " " + file + " cannot be written: " + above
                        + " is a file, not a directory");
            }
        }
        try {
            if (parent != null) {
                Files.createDirectories(parent);
            }
            try (OutputStream probe = Files.newOutputStream(file, StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE)) {
                probe.flush();
            }
        } catch (IOException e) {
            throw new IllegalArgumentException(option + " " + file + " cannot be written: " + reason(e), e);
        }
    }

    /**
     * Makes sure {@code file}, the input of {@code what}, is a readable regular file.
     *
     * @throws IllegalArgumentException saying what is wrong
     */
    static void checkInputFile(String what, Path file) {
        if (file.toString().isBlank()) {
            throw new IllegalArgumentException(what + " must name a file; got an empty path");
        }
        if (Files.isDirectory(file)) {
            throw new IllegalArgumentException(what + " '" + file + "' is a directory, not a file");
        }
        if (!Files.exists(file)) {
            throw new IllegalArgumentException(what + " '" + file + "' does not exist");
        }
        if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
            throw new IllegalArgumentException(what + " '" + file + "' is not a readable file");
        }
    }

    /**
     * Makes sure no value of {@code option} is given twice: a repeated value would be run and
     * counted twice, or fill a table with cells that say nothing.
     *
     * @throws IllegalArgumentException naming the repeated value
     */
    static <T> void checkDistinct(String option, java.util.List<T> values) {
        java.util.Set<T> seen = new java.util.HashSet<>();
        for (T value : values) {
            if (!seen.add(value)) {
                throw new IllegalArgumentException(option + " gives " + value + " twice; give each value once");
            }
        }
    }

    /** The reason an I/O operation failed, in words (the JDK's messages are often just a path). */
    static String reason(IOException e) {
        if (e instanceof CharacterCodingException) {
            return "it is not UTF-8 text (a binary file?)";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof FileSystemException fs && fs.getReason() != null) {
            return fs.getReason();
        }
        String message = e.getMessage();
        return message == null || message.isBlank() ? e.getClass().getSimpleName() : message;
    }
}
