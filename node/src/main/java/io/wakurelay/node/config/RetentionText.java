package io.wakurelay.node.config;

import io.wakurelay.archive.RetentionPolicy;

import java.math.BigDecimal;

/**
 * A retention policy as nwaku's {@code --store-message-retention-policy} writes it, for the start line: {@code none},
 * {@code time:<seconds>}, {@code capacity:<count>}, and a size in nwaku's units, {@code size:<n>GB} or
 * {@code size:<n>MB} (binary, as nwaku's; a size that is no whole number of megabytes in decimal megabytes, which
 * nwaku takes too).
 */
public final class RetentionText {
    private static final long MB = 1L << 20;
    private static final long GB = 1L << 30;

    private RetentionText() {
    }

    public static String format(RetentionPolicy policy) {
        if (!(policy instanceof RetentionPolicy.Size size)) {
            return policy.spec();
        }
        long bytes = size.maxBytes();
        if (bytes % GB == 0) {
            return "size:" + bytes / GB + "GB";
        }
        if (bytes % MB == 0) {
            return "size:" + bytes / MB + "MB";
        }
        return "size:" + BigDecimal.valueOf(bytes).divide(BigDecimal.valueOf(MB)).stripTrailingZeros().toPlainString() + "MB";
    }
}
