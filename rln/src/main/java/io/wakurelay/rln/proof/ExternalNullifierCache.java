package io.wakurelay.rln.proof;

import io.wakurelay.rln.RlnConfig.NullifierDerivation;
import io.wakurelay.rln.crypto.ExternalNullifier;
import io.wakurelay.rln.crypto.FieldElement;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The last few external nullifiers, by (epoch, rln identifier, derivation): a timestamp within the gap maps to at most
 * two or three epochs at a time, and the identifier is the Waku one, so four slots hold all a node needs. Bounded by
 * construction (a miss replaces one slot); safe from several threads (an entry is immutable, two threads computing
 * the same one both store an equal value).
 */
final class ExternalNullifierCache {
    private static final int SLOTS = 4;

    private final AtomicReferenceArray<Entry> slots = new AtomicReferenceArray<>(SLOTS);

    private record Entry(byte[] epoch, byte[] identifier, NullifierDerivation derivation, FieldElement value) {
    }

    FieldElement get(byte[] epoch, byte[] identifier, NullifierDerivation derivation) {
        int slot = (Arrays.hashCode(epoch) ^ derivation.ordinal()) & (SLOTS - 1);
        Entry e = slots.get(slot);
        if (e != null && e.derivation == derivation && Arrays.equals(e.epoch, epoch)
                && Arrays.equals(e.identifier, identifier)) {
            return e.value;
        }
        FieldElement value = ExternalNullifier.derive(epoch, identifier, derivation);
        slots.set(slot, new Entry(epoch.clone(), identifier.clone(), derivation, value));
        return value;
    }
}
