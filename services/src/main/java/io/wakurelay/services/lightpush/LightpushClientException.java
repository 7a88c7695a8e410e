package io.wakurelay.services.lightpush;

/** A push through a service node that ended before an answer: the outcome to report and the metric label it counts under. */
final class LightpushClientException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient LightpushClient.Result result;
    private final transient LightpushOutcome outcome;

    LightpushClientException(LightpushClient.Result result, LightpushOutcome outcome, Throwable cause) {
        super(outcome.statusDesc(), cause, false, false);
        this.result = result;
        this.outcome = outcome;
    }

    LightpushClient.Result result() {
        return result;
    }

    LightpushOutcome outcome() {
        return outcome;
    }
}
