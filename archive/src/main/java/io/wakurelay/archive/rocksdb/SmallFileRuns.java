package io.wakurelay.archive.rocksdb;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Which small SST files of one level to merge, and when (the policy of {@link SmallFileMerger}; pure, so that it is
 * tested without RocksDB).
 *
 * <p>A run is a sequence of files that are neighbours in key order, each smaller than {@code smallFileBytes} and not
 * in a compaction. In a run, the merge takes the newest files it can (the last in key order: keys are time-ordered).
 * From a file it extends towards older ones while the next older file is no larger than the files already taken
 * together (with {@value #SIZE_RATIO_PERCENT} % of slack, as in RocksDB's universal compaction, so that files of nearly
 * equal size merge) and while the output stays within {@code maxOutputBytes}; it merges once that holds
 * {@code minFiles} files. So files of about equal size merge in groups of {@code minFiles}, a merged file joins a
 * later merge only once about as many bytes follow it, and each byte is rewritten about
 * log2({@code smallFileBytes} / the flushed file size) times before its file is no longer small.
 */
final class SmallFileRuns {
    /** One SST file of a level, as the policy needs it. */
    record SstFile(String name, long size, boolean beingCompacted, byte[] smallestKey) {
    }

    /** How much larger than the newer files together an older file may be and still join them (RocksDB's default). */
    static final int SIZE_RATIO_PERCENT = 1;
    private static final Comparator<SstFile> KEY_ORDER = (a, b) -> Arrays.compareUnsigned(a.smallestKey(), b.smallestKey());

    private final long smallFileBytes;
    private final int minFiles;
    private final long maxOutputBytes;

    SmallFileRuns(long smallFileBytes, int minFiles, long maxOutputBytes) {
        if (minFiles < 2) {
            throw new IllegalArgumentException("a merge needs at least 2 files, was " + minFiles);
        }
        if (smallFileBytes * minFiles > maxOutputBytes) {
            throw new IllegalArgumentException("minFiles (" + minFiles + ") small files of " + smallFileBytes
                    + " bytes must fit in one output of " + maxOutputBytes + " bytes");
        }
        this.smallFileBytes = smallFileBytes;
        this.minFiles = minFiles;
        this.maxOutputBytes = maxOutputBytes;
    }

    /** The groups of files of one level to merge now, each into one file; none when no run is long enough. */
    List<List<SstFile>> pick(List<SstFile> level) {
        List<SstFile> sorted = new ArrayList<>(level);
        sorted.sort(KEY_ORDER);
        List<List<SstFile>> merges = new ArrayList<>();
        List<SstFile> run = new ArrayList<>();
        for (SstFile file : sorted) {
            if (file.size() < smallFileBytes && !file.beingCompacted()) {
                run.add(file);
            } else {
                addMerge(run, merges);
                run = new ArrayList<>();
            }
        }
        addMerge(run, merges);
        return merges;
    }

    /**
     * Adds the newest group of {@code run} that can merge. A group starts at a file and takes the older files before it
     * one by one; when a start gives too few, the next older start is tried, so that one file smaller than its elder
     * (the last flush of a quiet moment) does not hold up the run.
     */
    private void addMerge(List<SstFile> run, List<List<SstFile>> merges) {
        for (int last = run.size() - 1; last + 1 >= minFiles; last--) {
            int first = last;
            long taken = run.get(last).size();
            while (first > 0) {
                long older = run.get(first - 1).size();
                if (older * 100 > taken * (100 + SIZE_RATIO_PERCENT) || taken + older > maxOutputBytes) {
                    break;
                }
                taken += older;
                first--;
            }
            if (last - first + 1 >= minFiles) {
                merges.add(List.copyOf(run.subList(first, last + 1)));
                return;
            }
        }
    }
}
