package io.spinlab.sim.experiment;

import java.util.Objects;

/**
 * Where a published figure was found: the pull request it measured, the thread and comment that
 * printed it, and the machine it ran on, as the source names it.
 *
 * @param repository  the GitHub repository of the pull request, e.g. {@code dotnet/coreclr}
 * @param pullRequest the pull request whose change was measured
 * @param postedIn    the thread that printed the figures, e.g. {@code dotnet/coreclr#13631} (a port of the PR)
 * @param url         the thread's address
 * @param author      who posted the figures
 * @param date        the date of that comment, ISO-8601
 * @param machine     the machine as the source describes it, e.g. {@code Core i7-6700 (Skylake, 4C/8T)}
 * @param note        what of the thread could be read, and what was taken from elsewhere; may be empty
 */
public record Citation(String repository, int pullRequest, String postedIn, String url, String author, String date,
                       String machine, String note) {

    public Citation {
        Objects.requireNonNull(repository, "repository");
        Objects.requireNonNull(postedIn, "postedIn");
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(author, "author");
        Objects.requireNonNull(date, "date");
        Objects.requireNonNull(machine, "machine");
        Objects.requireNonNull(note, "note");
    }

    /** {@code dotnet/coreclr #13556 (posted in dotnet/coreclr#13631 by kouvel, 2017-08-28)}. */
    public String describe() {
        String where = postedIn.equals(repository + "#" + pullRequest) ? "" : "posted in " + postedIn + " ";
        return repository + " #" + pullRequest + " (" + where + "by " + author + ", " + date + ")";
    }
}
