package io.wakurelay.p2p.noise;

/** Bytes through the Noise ciphers (plaintext bytes), for the host's metrics. Called on event loops. */
public interface NoiseCounters {
    void encrypted(int plaintextBytes);

    void decrypted(int plaintextBytes);

    NoiseCounters NONE = new NoiseCounters() {
        @Override
        public void encrypted(int plaintextBytes) {
        }

        @Override
        public void decrypted(int plaintextBytes) {
        }
    };
}
