package io.wakurelay.protocol;

/**
 * Why a message was not accepted. The {@link #label()} is the value of the {@code reason} tag on the
 * invalid-message metrics, so it is part of the metrics contract (docs/metrics.md).
 *
 * <p>{@link #penalised()} is gossipsub's REJECT or IGNORE: a rejected message is one no honest node would have
 * relayed, and counts against the peer that sent it; an ignored one fails only this node's own view (its clock,
 * its subscriptions) and costs the sender nothing, so that an honest forwarder is never penalised.
 */
public enum Violation {
    /** The RPC is not valid protobuf, or its length prefix is malformed. */
    MALFORMED_RPC("malformed_rpc", true),
    /** The RPC is longer than the maximum RPC size. */
    RPC_TOO_LARGE("rpc_too_large", true),
    /** The gossipsub message carries from, seqno, signature or key: Waku relay is StrictNoSign. */
    SIGNED_MESSAGE("signed_message", true),
    /** The gossipsub message is for a topic this node does not relay (it may have just left it). */
    NOT_SUBSCRIBED("not_subscribed", false),
    /** The WakuMessage is larger than the maximum message size. */
    MESSAGE_TOO_LARGE("message_too_large", true),
    /** The WakuMessage bytes are absent or not a valid protobuf WakuMessage. */
    MALFORMED_MESSAGE("malformed_message", true),
    /** A string field is not valid UTF-8. */
    INVALID_UTF8("invalid_utf8", true),
    /** The pubsub topic is empty, too long or not of a known form. */
    INVALID_PUBSUB_TOPIC("invalid_pubsub_topic", true),
    /** The content topic is absent. */
    MISSING_CONTENT_TOPIC("missing_content_topic", true),
    /** The content topic is not /{application}/{version}/{topic}/{encoding} (optionally with a generation prefix). */
    INVALID_CONTENT_TOPIC("invalid_content_topic", true),
    /** meta is longer than 64 bytes. */
    META_TOO_LARGE("meta_too_large", true),
    /** The relay's installed validator (RLN) rejected the message; its reason is in the validation metrics. */
    VALIDATOR_REJECTED("validator_rejected", true),
    /** The relay's installed validator ignored the message (it fails only this node's view). */
    VALIDATOR_IGNORED("validator_ignored", false),
    /** The message was not validated: the validation stage, or its sender's share of it, was full. */
    VALIDATION_THROTTLED("validation_throttled", false);

    private final String label;
    private final boolean penalised;

    Violation(String label, boolean penalised) {
        this.label = label;
        this.penalised = penalised;
    }

    /** Metric tag value and the short name used in error messages. */
    public String label() {
        return label;
    }

    /** True for gossipsub's REJECT (the sender is penalised), false for IGNORE. */
    public boolean penalised() {
        return penalised;
    }
}
