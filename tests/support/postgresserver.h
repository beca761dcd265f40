#pragma once

#include <QProcess>
#include <QString>
#include <QTemporaryDir>

#include <memory>

namespace LockScope::Test {

// A throwaway PostgreSQL server owned by one test: initdb into a directory of its own, then postgres on a free
// loopback port (never a fixed one) with its socket in that directory, trust authentication for the role lockscope,
// no fsync. PostgreSQL refuses to run as root: as root, initdb and postgres run as the postgres user (Debian's package
// makes it) through setpriv, which execs, so the child is postgres itself and dies with the test. Stopped, and its
// directory removed, by the destructor.
class PostgresServer
{
public:
    PostgresServer();
    ~PostgresServer();
    PostgresServer(const PostgresServer &) = delete;
    PostgresServer &operator=(const PostgresServer &) = delete;

    // The newest /usr/lib/postgresql/*/bin holding postgres; empty when PostgreSQL is not installed.
    static QString binDir();
    // Whether a test without PostgreSQL must fail rather than skip (CI sets LOCKSCOPE_REQUIRE_POSTGRES=1).
    static bool required() { return qEnvironmentVariableIsSet("LOCKSCOPE_REQUIRE_POSTGRES"); }

    // Blocks until the server accepts connections (at most 60 s: initdb and a start under the sanitizers on a busy
    // machine take their time).
    bool start(QString *error);
    // stop(), then the same server on the same port again.
    bool restart(QString *error);
    // SIGINT (PostgreSQL's fast shutdown: SIGTERM would wait for every client to leave), SIGKILL after 10 s.
    void stop();

    quint16 port() const { return m_port; }
    // postgresql://lockscope@127.0.0.1:PORT/DATABASE
    QString url(const QString &database) const;
    // A new empty database; its name.
    QString createDatabase(QString *error);
    // psql -At on database: the output, or empty with *error.
    QByteArray psql(const QString &database, const QString &sql, QString *error) const;
    QString log() const;

private:
    bool run(const QString &program, const QStringList &args, QString *error, QByteArray *output = nullptr) const;
    void asPostgres(QProcess &p, const QString &program, const QStringList &args) const;
    bool launch(quint16 port, QString *error);

    QTemporaryDir m_dir;
    QString m_bin;
    quint16 m_port = 0;
    int m_databases = 0;
    std::unique_ptr<QProcess> m_server;
};

} // namespace LockScope::Test
