package io.wakurelay.relay;

import java.util.Locale;

/** The five gossipsub control messages: the {@code kind} label of the control meters. */
enum ControlKind {
    GRAFT, PRUNE, IHAVE, IWANT, IDONTWANT;

    String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
