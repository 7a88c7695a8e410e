package io.wakurelay.services.filter;

import java.util.Locale;

/** Why a subscriber's subscription ended: the {@code reason} of {@code waku_filter_subscribers_removed_total}. */
enum FilterRemoval {
    /** It unsubscribed from its last criterion, or from all. */
    UNSUBSCRIBED,
    /** It did not refresh its subscription within the timeout. */
    EXPIRED,
    /** Too many pushes in a row were dropped because it did not take them. */
    STUCK,
    /** Its connection closed. */
    DISCONNECTED,
    /** It does not accept the filter-push protocol. */
    PUSH_REFUSED,
    /** The service shut down. */
    SHUTDOWN;

    String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
