package io.spinlab.reports.report;

/** Keeps AWT headless for charts: the report never opens a window and must run on servers. */
final class Headless {

    private Headless() {
    }

    /** Sets {@code java.awt.headless=true} unless it was set already (before AWT reads it). */
    static void ensure() {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
    }
}
