// Real lock libraries from the npm registry (tests/interop/: node-redlock 4, redis-semaphore's Mutex and Semaphore, on
// ioredis),
// against a real redis-server: their holds are listed with the right library and holder, our force release lets
// their next acquire succeed at once, and the holder we released under sees its own release refused or ignored by its
// library, never deleting the lock its successor now holds. The packages are installed by `scripts/dev setup`
// (npm ci in tests/interop); without them, or without Node.js, this test fails and says so (it is always built and
// registered: a suite that skipped it silently would pass without ever meeting a real client).
#include "clirun.h"
#include "rawredis.h"
#include "redisserver.h"
#include "testutil.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace LockScope;
using namespace LockScope::Test;

class TestNpmInterop : public QObject
{
    Q_OBJECT
    RedisServer m_server;
    QTemporaryDir m_dir;
    const QString m_interop = QStringLiteral(LOCKSCOPE_INTEROP_DIR);
    QString m_node;

    // $LOCKSCOPE_NODE, else the node found when the build was configured, else node on the PATH; empty if none runs.
    static QString findNode()
    {
        const QString fromEnv = qEnvironmentVariable("LOCKSCOPE_NODE");
        const QString configured = QStringLiteral(LOCKSCOPE_NODE);
        const QString node = !fromEnv.isEmpty() ? fromEnv
            : !configured.isEmpty()             ? configured
                                                : QStandardPaths::findExecutable(QStringLiteral("node"));
        return !node.isEmpty() && QFileInfo(node).isExecutable() ? node : QString();
    }

    CliRun cli(QStringList args) { return runCli(args << QStringLiteral("--url") << m_server.url(), m_dir); }

    void startNode(QProcess &p, const QString &mode, const QString &library, const QByteArray &name)
    {
        p.setWorkingDirectory(m_interop);
        p.start(m_node,
            { m_interop + QStringLiteral("/locks.js"), mode, library, QString::number(m_server.port()),
                QString::fromUtf8(name), QStringLiteral("60000") });
        QVERIFY2(p.waitForStarted(), qPrintable(p.errorString()));
    }

    // The next line the library's process prints (empty when it printed none within 30 s).
    static QByteArray lineFrom(QProcess &p)
    {
        while (!p.canReadLine())
            if (!p.waitForReadyRead(30000))
                return {};
        return p.readLine().trimmed();
    }

    // One attempt of the library's own acquire, as a process of its own: "acquired <token>" or "busy".
    QByteArray tryOnce(const QString &library, const QByteArray &name)
    {
        QProcess p;
        startNode(p, QStringLiteral("try"), library, name);
        p.closeWriteChannel();
        const QByteArray line = lineFrom(p);
        p.waitForFinished(30000);
        return line;
    }

    // The lock list shows at key; empty (and the test failed, with list's standard error) when list failed.
    QJsonObject listed(const QByteArray &key)
    {
        const auto locks = listedLocks(m_server.url(), m_dir, QString::fromUtf8(key));
        return locks ? locks->value(QString::fromUtf8(key)) : QJsonObject();
    }

    // Held by the library, shown as its own, force-released by us, taken by its next acquire at once, and the old
    // holder's release does not touch the new holder's lock.
    void roundTrip(const QString &library, const QByteArray &name, const QByteArray &key, const QString &expected)
    {
        RawRedis raw(m_server.port());
        QProcess holder;
        startNode(holder, QStringLiteral("hold"), library, name);
        const QByteArray held = lineFrom(holder);
        QVERIFY2(held.startsWith("held "), held.constData());
        const QByteArray token = held.mid(5);
        QCOMPARE(raw.get(key), token);

        const QJsonObject lock = listed(key);
        const QString shownLibrary = lock.value(QStringLiteral("library")).toString();
        // A random 32-hex token may also have redis-py's uuid1 shape (1 in 64): then the evidence names the other.
        QVERIFY2(shownLibrary == expected
                || QJsonDocument(lock.value(QStringLiteral("evidence")).toArray()).toJson().contains(expected.toUtf8()),
            qPrintable(QJsonDocument(lock).toJson()));
        const QJsonArray holders = lock.value(QStringLiteral("holders")).toArray();
        QCOMPARE(holders.size(), 1);
        QCOMPARE(holders.at(0).toObject().value(QStringLiteral("owner")).toString().toUtf8(), token);
        QVERIFY(lock.value(QStringLiteral("ttl_ms")).toInteger() > 0);

        QCOMPARE(tryOnce(library, name), QByteArray("busy"));
        const CliRun force = cli({ QStringLiteral("force-release"), QString::fromUtf8(key), QStringLiteral("--yes") });
        CLI_EXIT(force, CliExit::Done);
        const QByteArray next = tryOnce(library, name);
        QVERIFY2(next.startsWith("acquired "), next.constData());
        const QByteArray successor = next.mid(9);
        QVERIFY(successor != token);

        holder.write("release\n");
        const QByteArray released = lineFrom(holder);
        QVERIFY2(released.startsWith("release"), released.constData());
        holder.waitForFinished(30000);
        QCOMPARE(raw.get(key), successor);
    }

private slots:
    void initTestCase()
    {
        m_node = findNode();
        const QString configured = QStringLiteral(LOCKSCOPE_NODE);
        const QString looked = qEnvironmentVariableIsSet("LOCKSCOPE_NODE")
            ? QStringLiteral("$LOCKSCOPE_NODE is %1").arg(qEnvironmentVariable("LOCKSCOPE_NODE"))
            : QStringLiteral("looked at %1 and the PATH")
                  .arg(configured.isEmpty() ? QStringLiteral("no node found at configure time") : configured);
        QVERIFY2(!m_node.isEmpty(),
            qPrintable(QStringLiteral("Node.js is missing (%1): install nodejs, then run scripts/dev setup (npm ci in "
                                      "tests/interop)")
                           .arg(looked)));
        for (const char *package : { "ioredis", "redlock", "redis-semaphore" })
            QVERIFY2(QFileInfo::exists(m_interop + QStringLiteral("/node_modules/") + QLatin1String(package)),
                qPrintable(QStringLiteral("the npm package %1 is not installed in %2/node_modules: run scripts/dev "
                                          "setup (npm ci in tests/interop)")
                               .arg(QLatin1String(package), m_interop)));
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
    }

    void nodeRedlock()
    {
        const QByteArray name = "lock:" + uniqueKey("redlock");
        roundTrip(QStringLiteral("redlock"), name, name, QStringLiteral("node-redlock"));
    }

    void redisSemaphoreMutex()
    {
        const QByteArray name = uniqueKey("mutex");
        roundTrip(QStringLiteral("mutex"), name, "mutex:" + name, QStringLiteral("redis-semaphore"));
    }

    // redis-semaphore's Semaphore keeps its permits in a sorted set: shown as a permit-set whose holder is the
    // library's identifier; our force release removes only that permit, the library's next acquire gets it at once,
    // and the old holder's release leaves its successor's permit alone.
    void redisSemaphoreSemaphore()
    {
        const QByteArray name = uniqueKey("semaphore");
        const QByteArray key = "semaphore:" + name;
        RawRedis raw(m_server.port());
        QProcess holder;
        startNode(holder, QStringLiteral("hold"), QStringLiteral("semaphore"), name);
        const QByteArray held = lineFrom(holder);
        QVERIFY2(held.startsWith("held "), held.constData());
        const QByteArray token = held.mid(5);

        const QJsonObject lock = listed(key);
        QCOMPARE(lock.value(QStringLiteral("kind")).toString(), QStringLiteral("permit-set"));
        QCOMPARE(lock.value(QStringLiteral("library")).toString(), QStringLiteral("redis-semaphore"));
        QCOMPARE(lock.value(QStringLiteral("permits_taken")).toInteger(), 1);
        const QJsonArray holders = lock.value(QStringLiteral("holders")).toArray();
        QCOMPARE(holders.size(), 1);
        QCOMPARE(holders.at(0).toObject().value(QStringLiteral("owner")).toString().toUtf8(), token);
        QVERIFY(lock.value(QStringLiteral("ttl_ms")).toInteger() > 0);

        QCOMPARE(tryOnce(QStringLiteral("semaphore"), name), QByteArray("busy"));
        const CliRun force = cli({ QStringLiteral("force-release"), QString::fromUtf8(key), QStringLiteral("--yes") });
        CLI_EXIT(force, CliExit::Done);
        const QByteArray next = tryOnce(QStringLiteral("semaphore"), name);
        QVERIFY2(next.startsWith("acquired "), next.constData());
        const QByteArray successor = next.mid(9);

        holder.write("release\n");
        const QByteArray released = lineFrom(holder);
        QVERIFY2(released.startsWith("release"), released.constData());
        holder.waitForFinished(30000);
        QCOMPARE(raw.command({ "ZRANGE", key, "0", "-1" }).elements().size(), 1);
        QVERIFY(!raw.command({ "ZSCORE", key, successor }).isNil());
    }
};

QTEST_GUILESS_MAIN(TestNpmInterop)
#include "tst_npminterop.moc"
