package io.wakurelay.archive.postgres;

import io.wakurelay.archive.MessageArchive;
import io.wakurelay.archive.contract.StoreQueryContract;
import io.wakurelay.testkit.PostgresServer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;

@Tag("process")
class PostgresStoreQueryTest extends StoreQueryContract {
    @RegisterExtension
    static final PostgresServer postgres = new PostgresServer();

    @Override
    protected MessageArchive open() {
        return PostgresFixture.open(postgres);
    }
}
