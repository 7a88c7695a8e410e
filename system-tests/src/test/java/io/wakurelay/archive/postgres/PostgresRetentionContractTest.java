package io.wakurelay.archive.postgres;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.archive.MessageArchive;
import io.wakurelay.archive.RetentionPolicy;
import io.wakurelay.archive.contract.RetentionContract;
import io.wakurelay.testkit.PostgresServer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;

@Tag("process")
class PostgresRetentionContractTest extends RetentionContract {
    @RegisterExtension
    static final PostgresServer postgres = new PostgresServer();

    @Override
    protected MessageArchive open(RetentionPolicy policy) {
        return PostgresArchive.open(PostgresFixture.config(postgres).withCore(c -> c.retention(policy)), new SimpleMeterRegistry());
    }

    @Override
    protected long count(MessageArchive archive) {
        return PostgresFixture.count(archive);
    }
}
