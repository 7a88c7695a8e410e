package io.wakurelay.relay.validation;

/**
 * What {@link RelayValidator#screen} decided: a {@link Verdict} at once, or {@link #VERIFY}: the message goes to
 * {@link RelayValidator#verify} on the relay's validation threads.
 */
public sealed interface Screen permits Verdict, Screen.Verify {
    /** Not decided by the cheap checks: the relay has the message verified. */
    Verify VERIFY = new Verify();

    /** See {@link #VERIFY}. */
    record Verify() implements Screen {
    }
}
