package io.wakurelay.relay;

/**
 * What happens on one topic this node relays, told to the sink {@link RouterEvents#joined} gave when the node joined
 * it ({@link SubscribedTopicMeters}: nwaku's per-topic and per-shard meters), and closed when it leaves. The router
 * looks the sink up once per message by the topic it already has; a sink counts and returns.
 */
interface TopicEvents extends AutoCloseable {
    /** A message on the topic arrived from a peer (every copy: duplicates and invalid ones too). */
    void received(int messageBytes);

    /** A message from a peer was accepted. */
    void accepted(int messageBytes, int payloadSize);

    /** This node published a message on the topic. */
    void published(int payloadSize);

    /** A message went to {@code copies} peers. */
    void sent(int messageBytes, int copies);

    /** The node left the topic. */
    @Override
    void close();

    /** Every event to {@code first}, then to {@code second}. */
    static TopicEvents both(TopicEvents first, TopicEvents second) {
        return new TopicEvents() {
            @Override
            public void received(int messageBytes) {
                first.received(messageBytes);
                second.received(messageBytes);
            }

            @Override
            public void accepted(int messageBytes, int payloadSize) {
                first.accepted(messageBytes, payloadSize);
                second.accepted(messageBytes, payloadSize);
            }

            @Override
            public void published(int payloadSize) {
                first.published(payloadSize);
                second.published(payloadSize);
            }

            @Override
            public void sent(int messageBytes, int copies) {
                first.sent(messageBytes, copies);
                second.sent(messageBytes, copies);
            }

            @Override
            public void close() {
                first.close();
                second.close();
            }
        };
    }
}
