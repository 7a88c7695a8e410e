package io.wakurelay.relay;

/** Where accepted messages come from, paused while the local consumer is behind (a peer's stream, an inject). */
interface Source {
    void pause();

    void resume();
}
