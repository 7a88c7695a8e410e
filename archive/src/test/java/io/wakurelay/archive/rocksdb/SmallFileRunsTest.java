package io.wakurelay.archive.rocksdb;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Which neighbouring small SST files {@link SmallFileRuns} merges, and which it leaves. */
class SmallFileRunsTest {
    private static final long KB = 1024;
    private final SmallFileRuns runs = new SmallFileRuns(100 * KB, 4, 1000 * KB);

    @Test
    void fourEqualSmallFilesMergeIntoOneButThreeWait() {
        assertThat(runs.pick(files(10, 10, 10))).isEmpty();
        assertThat(names(runs.pick(files(10, 10, 10, 10)))).containsExactly(List.of("f0", "f1", "f2", "f3"));
    }

    @Test
    void aMergedFileIsMergedAgainOnlyOnceAsManyBytesFollowIt() {
        assertThat(runs.pick(files(40, 10, 10, 10))).as("30 KB after a 40 KB file: too few small files").isEmpty();
        assertThat(names(runs.pick(files(40, 10, 10, 10, 10)))).as("40 KB after it: merged with them")
                .containsExactly(List.of("f0", "f1", "f2", "f3", "f4"));
        assertThat(names(runs.pick(files(80, 10, 10, 10, 10)))).as("a larger file stays out of the merge")
                .containsExactly(List.of("f1", "f2", "f3", "f4"));
    }

    @Test
    void aNewestFileSmallerThanTheOthersDoesNotHoldUpTheMerge() {
        assertThat(names(runs.pick(files(10, 10, 10, 10, 4)))).containsExactly(List.of("f0", "f1", "f2", "f3"));
        assertThat(names(runs.pick(files(10, 12, 9, 11, 10)))).as("sizes that vary a little")
                .containsExactly(List.of("f0", "f1", "f2", "f3"));
    }

    @Test
    void filesAtTheSmallSizeOrInACompactionEndARun() {
        assertThat(runs.pick(files(10, 10, 100, 10, 10))).as("a file of the small size is not small").isEmpty();
        List<SmallFileRuns.SstFile> level = files(10, 10, 10, 10, 10, 10, 10);
        level.set(4, new SmallFileRuns.SstFile("f4", 10 * KB, true, key(4)));
        assertThat(names(runs.pick(level))).containsExactly(List.of("f0", "f1", "f2", "f3"));
    }

    @Test
    void eachRunOfALevelIsMergedOnItsOwn() {
        assertThat(names(runs.pick(files(10, 10, 10, 10, 500, 20, 20, 20, 20))))
                .containsExactly(List.of("f0", "f1", "f2", "f3"), List.of("f5", "f6", "f7", "f8"));
    }

    @Test
    void aMergeWritesNoMoreThanOneOutputFile() {
        SmallFileRuns twoPerMerge = new SmallFileRuns(100 * KB, 2, 250 * KB);
        assertThat(names(twoPerMerge.pick(files(90, 90, 90, 90)))).as("two 90 KB files fit in 250 KB, three do not")
                .containsExactly(List.of("f2", "f3"));
    }

    @Test
    void filesAreTakenInKeyOrderWhateverOrderTheLevelListsThem() {
        List<SmallFileRuns.SstFile> level = files(10, 10, 10, 10);
        List<SmallFileRuns.SstFile> shuffled = new ArrayList<>(List.of(level.get(2), level.get(0), level.get(3), level.get(1)));
        assertThat(names(runs.pick(shuffled))).containsExactly(List.of("f0", "f1", "f2", "f3"));
    }

    @Test
    void aPolicyWhoseMergeCouldNotHoldItsSmallFilesIsRefused() {
        assertThatThrownBy(() -> new SmallFileRuns(100 * KB, 1, 1000 * KB)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SmallFileRuns(100 * KB, 11, 1000 * KB)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must fit in one output");
    }

    /** Files f0, f1, ... in key order, of the given sizes in KB. */
    private static List<SmallFileRuns.SstFile> files(int... kilobytes) {
        List<SmallFileRuns.SstFile> files = new ArrayList<>();
        for (int i = 0; i < kilobytes.length; i++) {
            files.add(new SmallFileRuns.SstFile("f" + i, kilobytes[i] * KB, false, key(i)));
        }
        return files;
    }

    /** Keys from 0x70 up, past 0x7f, so that a signed byte comparison would get the order wrong (i at most 8). */
    private static byte[] key(int i) {
        return new byte[] {(byte) (0x70 + 0x10 * i)};
    }

    private static List<List<String>> names(List<List<SmallFileRuns.SstFile>> merges) {
        return merges.stream().map(group -> group.stream().map(SmallFileRuns.SstFile::name).toList()).toList();
    }
}
