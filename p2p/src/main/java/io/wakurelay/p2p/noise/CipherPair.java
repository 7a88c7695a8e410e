package io.wakurelay.p2p.noise;

/** The two transport cipher states of one side of a Noise session: what it sends, and what it receives. */
public record CipherPair(CipherState sender, CipherState receiver) {
}
