// The recording files themselves, as they meet people: a recording of the first schema read as it is and brought up
// to date only when a recorder writes to it; one of a newer LockScope refused and left as it is; a daemon's recording
// that somebody may read but not write answered all the same, nothing created beside it. Real redis-server and
// recorder processes; the files written as older versions and other users leave them.
#include "recordingcli.h"
#include "redisserver.h"
#include "testutil.h"

#include "recording/recordingstore.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
qint64 userVersion(const QString &path)
{
    qint64 version = -1;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("peek"));
        db.setDatabaseName(path);
        if (db.open()) {
            QSqlQuery q(db);
            if (q.exec(QStringLiteral("PRAGMA user_version")) && q.next())
                version = q.value(0).toLongLong();
            db.close();
        }
    }
    QSqlDatabase::removeDatabase(QStringLiteral("peek"));
    return version;
}
} // namespace

class TestRecordingFiles : public QObject
{
    Q_OBJECT
    RedisServer m_server { RedisServerOptions {
        { QStringLiteral("--notify-keyspace-events"), QStringLiteral("KEA") } } };
    QTemporaryDir m_dir;
    RecordingCli m_cli { m_server, m_dir };

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
    }

    // A recording somebody may read but not write (a daemon's, in a folder of its own), with nobody recording to it:
    // its questions are answered, and nothing is created beside it. As root, the CLI runs as nobody.
    void aRecordingOnlyReadableIsRead()
    {
        QTemporaryDir dir(QDir::tempPath() + QStringLiteral("/lockscope-readonly-XXXXXX"));
        QVERIFY(dir.isValid());
        const QString db = dir.filePath(QStringLiteral("daemon.sqlite"));
        {
            RecordingStore store;
            QString error;
            QVERIFY2(store.open(db, true, &error), qPrintable(error));
            QVERIFY2(store.append({ RecordedEvent { 1764300000000, "redis://127.0.0.1:1/0", "acquired", "orders:7",
                                      "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:1", {}, 1, 30000, -1, "reentrant",
                                      "redisson", {} } },
                         &error),
                qPrintable(error));
        }
        QVERIFY(QFile::setPermissions(db, QFileDevice::ReadOwner | QFileDevice::ReadGroup | QFileDevice::ReadOther));
        QVERIFY(QFile::setPermissions(dir.path(),
            QFileDevice::ReadOwner | QFileDevice::ExeOwner | QFileDevice::ReadGroup | QFileDevice::ExeGroup
                | QFileDevice::ReadOther | QFileDevice::ExeOther));
        const QStringList before = QDir(dir.path()).entryList(QDir::Files);
        QProcess p;
        QStringList args { QStringLiteral("history"), QStringLiteral("orders:7"), QStringLiteral("--db"), db };
        if (geteuid() == 0) {
            args.prepend(QStringLiteral(LOCKSCOPE_CLI_PATH));
            args = QStringList { QStringLiteral("--reuid=nobody"), QStringLiteral("--regid=nogroup"),
                QStringLiteral("--clear-groups"), QStringLiteral("--") }
                + args;
            p.setProgram(QStringLiteral("setpriv"));
        } else {
            p.setProgram(QStringLiteral(LOCKSCOPE_CLI_PATH));
        }
        p.setArguments(args);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), dir.path());
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
        env.insert(QStringLiteral("XDG_DATA_HOME"), dir.filePath(QStringLiteral("data")));
        p.setProcessEnvironment(env);
        p.start();
        QVERIFY(p.waitForFinished(60000));
        const QByteArray out = p.readAllStandardOutput(), err = p.readAllStandardError();
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, (out + err).constData());
        QVERIFY2(out.contains("acquired") && out.contains("6e3d30b7-83b1-433a-9335-5e8b9916d3ac:1"), out.constData());
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), before);
        QFile::setPermissions(dir.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    }

    // A recording of the first schema (no snapshots): read as it is, and brought up to date (its events kept) only
    // when a recorder writes to it. A newer one is refused and left as it is.
    void aFirstVersionRecordingIsBroughtUpToDate()
    {
        const QString db = m_dir.filePath(QStringLiteral("v1.sqlite"));
        {
            QSqlDatabase v1 = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("v1"));
            v1.setDatabaseName(db);
            QVERIFY(v1.open());
            QSqlQuery q(v1);
            for (const char *statement :
                { "PRAGMA application_id=1280004946", "PRAGMA user_version=1",
                    "CREATE TABLE events (id INTEGER PRIMARY KEY, ts INTEGER NOT NULL, server TEXT NOT NULL, "
                    "type TEXT NOT NULL, name BLOB NOT NULL, owner BLOB, previous_owner BLOB, count INTEGER, "
                    "ttl_ms INTEGER, late_ms INTEGER, kind TEXT, library TEXT, detail TEXT)",
                    "CREATE INDEX events_by_name ON events(name, ts)", "CREATE INDEX events_by_time ON events(ts)",
                    "CREATE INDEX events_by_owner ON events(owner, ts)",
                    "INSERT INTO events (ts, server, type, name, owner, count, ttl_ms, late_ms, kind, library, detail) "
                    "VALUES (1764300000000, 'redis://old:6379/0', 'acquired', CAST('orders:7' AS BLOB), "
                    "CAST('6e3d30b7-83b1-433a-9335-5e8b9916d3ac:31' AS BLOB), 1, 30000, -1, 'reentrant', 'redisson', "
                    "'')" })
                QVERIFY2(q.exec(QString::fromLatin1(statement)), qPrintable(q.lastError().text()));
            v1.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("v1"));
        QCOMPARE(RecordingStore::kApplicationId, 1280004946);

        QCOMPARE(eventsOf(m_cli.history(db, "orders:7")), QStringList { QStringLiteral("acquired") });
        QCOMPARE(userVersion(db), 1); // only read: unchanged
        QProcess recorder;
        m_cli.startRecorder(recorder, db, uniqueKey("v1"));
        recorder.terminate();
        QVERIFY(recorder.waitForFinished(30000));
        QCOMPARE(userVersion(db), qint64(RecordingStore::schemaVersion()));
        QCOMPARE(eventsOf(m_cli.history(db, "orders:7")), QStringList { QStringLiteral("acquired") });

        const QString newer = m_dir.filePath(QStringLiteral("newer.sqlite"));
        QVERIFY(QFile::copy(db, newer));
        {
            QSqlDatabase n = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("newer"));
            n.setDatabaseName(newer);
            QVERIFY(n.open());
            QSqlQuery q(n);
            QVERIFY(q.exec(QStringLiteral("PRAGMA user_version=99")));
            n.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("newer"));
        const CliRun refused
            = runCli({ QStringLiteral("history"), QStringLiteral("orders:7"), QStringLiteral("--db"), newer }, m_dir);
        CLI_EXIT(refused, CliExit::Usage);
        QVERIFY2(refused.err.contains("newer LockScope"), refused.describe().constData());
        QCOMPARE(userVersion(newer), 99);
    }
};

QTEST_MAIN(TestRecordingFiles)
#include "tst_recordingfiles.moc"
