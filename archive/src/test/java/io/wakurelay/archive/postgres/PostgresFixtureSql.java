package io.wakurelay.archive.postgres;

import io.wakurelay.testkit.PostgresServer;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

/** A plain JDBC connection to a test database: what another node, an nwaku node or an operator does beside the archive. */
final class PostgresFixtureSql {
    private PostgresFixtureSql() {
    }

    static Connection connect(PostgresServer server, String database) throws SQLException {
        return DriverManager.getConnection("jdbc:postgresql://" + PostgresServer.HOST + ":" + server.port() + "/" + database,
                PostgresServer.USER, PostgresServer.PASSWORD);
    }
}
