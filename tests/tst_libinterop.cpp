// Real lock libraries in Go and Python, driven by their own acquire and release against a real redis-server, as
// tst_npminterop does for npm's: go-redsync/redsync v4 and bsm/redislock (tests/interop/go, from the Go module proxy)
// and python-redis-lock, pottery's Redlock and redis-py's Lock (tests/interop/python, from PyPI into a virtual
// environment). For each: the hold is listed as that library's with its token as the holder and a TTL, our force
// release lets the library's next single attempt take it at once, the old holder's release is refused by its library
// without deleting its successor's lock, and no other key changed. `scripts/dev setup` builds the Go driver and makes
// the venv; without them a row fails and says so (a suite that skipped it would pass without meeting a real client).
#include "clirun.h"
#include "rawredis.h"
#include "redisserver.h"
#include "testutil.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
enum Driver { Go, Python };
}

class TestLibInterop : public QObject
{
    Q_OBJECT
    RedisServer m_server;
    QTemporaryDir m_dir;
    const QString m_interop = QStringLiteral(LOCKSCOPE_INTEROP_DIR);
    const QString m_goBinary = m_interop + QStringLiteral("/go/bin/locks");
    const QString m_python = m_interop + QStringLiteral("/python/.venv/bin/python");
    QString m_notReady[2]; // why a driver cannot run, for each row that needs it; empty when it can

    // The Go driver, built from the sources now in the tree. Go itself (found when the build was configured) is only
    // named: the test runs what scripts/dev setup built with it.
    QString goProblem() const
    {
        const QString go = QStringLiteral(LOCKSCOPE_GO);
        const QString found = go.isEmpty() ? QStringLiteral("and no go was found on the PATH nor in /usr/local/go/bin")
                                           : QStringLiteral("go is at %1").arg(go);
        const QFileInfo binary(m_goBinary);
        if (!binary.isExecutable())
            return QStringLiteral("the Go lock driver %1 is not built (%2): run scripts/dev setup")
                .arg(m_goBinary, found);
        for (const char *source : { "main.go", "go.mod", "go.sum" }) {
            const QFileInfo file(m_interop + QStringLiteral("/go/") + QLatin1String(source));
            if (file.lastModified() > binary.lastModified())
                return QStringLiteral("the Go lock driver %1 is older than %2: run scripts/dev setup to build it again")
                    .arg(m_goBinary, file.filePath());
        }
        return {};
    }

    // The venv, with every package at the version requirements.txt pins.
    QString pythonProblem() const
    {
        const QString requirements = m_interop + QStringLiteral("/python/requirements.txt");
        if (!QFileInfo(m_python).isExecutable())
            return QStringLiteral("the Python venv is missing (no %1): run scripts/dev setup").arg(m_python);
        QProcess p;
        p.start(m_python,
            { QStringLiteral("-c"),
                QStringLiteral("import sys, importlib.metadata as m\n"
                               "for line in open(sys.argv[1]):\n"
                               "    line = line.split('#')[0].strip()\n"
                               "    if not line: continue\n"
                               "    name, pin = line.split('==')\n"
                               "    try: have = m.version(name)\n"
                               "    except m.PackageNotFoundError: have = 'none'\n"
                               "    if have != pin: print(f'{name}=={pin} (installed: {have})')\n"),
                requirements });
        if (!p.waitForFinished(30000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
            return QStringLiteral("the Python venv's %1 does not run (%2): run scripts/dev setup")
                .arg(m_python, QString::fromUtf8(p.readAllStandardError()));
        const QByteArray wrong = p.readAllStandardOutput().trimmed();
        if (!wrong.isEmpty())
            return QStringLiteral("the Python venv does not have the pinned packages: %1: run scripts/dev setup")
                .arg(QString::fromUtf8(wrong).replace(QLatin1Char('\n'), QStringLiteral("; ")));
        return {};
    }

    CliRun cli(QStringList args) { return runCli(args << QStringLiteral("--url") << m_server.url(), m_dir); }

    void start(QProcess &p, Driver driver, const QString &mode, const QString &library, const QByteArray &name,
        qint64 ttlMs = 60000)
    {
        const QStringList args { mode, library, QString::number(m_server.port()), QString::fromUtf8(name),
            QString::number(ttlMs) };
        if (driver == Go)
            p.start(m_goBinary, args);
        else
            p.start(m_python, QStringList { m_interop + QStringLiteral("/python/locks.py") } + args);
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
    QByteArray tryOnce(Driver driver, const QString &library, const QByteArray &name)
    {
        QProcess p;
        start(p, driver, QStringLiteral("try"), library, name);
        p.closeWriteChannel();
        const QByteArray line = lineFrom(p);
        p.waitForFinished(30000);
        return line.isEmpty() ? "(nothing; stderr: " + p.readAllStandardError() + ")" : line;
    }

    // Every key but those named in skip, with its DUMP: what must not change.
    static QMap<QByteArray, QByteArray> others(RawRedis &raw, const QSet<QByteArray> &skip)
    {
        QMap<QByteArray, QByteArray> out;
        const RedisValue keys = raw.command({ "KEYS", "*" });
        for (const RedisValue &key : keys.elements())
            if (!skip.contains(key.bytes()))
                out.insert(key.bytes(), raw.command({ "DUMP", key.bytes() }).bytes());
        return out;
    }

    // The keys added, gone or changed between two snapshots of others(); empty when none.
    static QByteArray differences(const QMap<QByteArray, QByteArray> &before, const QMap<QByteArray, QByteArray> &after)
    {
        QByteArrayList out;
        for (auto it = before.cbegin(); it != before.cend(); ++it)
            if (!after.contains(it.key()))
                out << "gone " + it.key();
            else if (after.value(it.key()) != it.value())
                out << "changed " + it.key();
        for (auto it = after.cbegin(); it != after.cend(); ++it)
            if (!before.contains(it.key()))
                out << "added " + it.key();
        return out.join(", ");
    }

private slots:
    void initTestCase()
    {
        m_notReady[Go] = goProblem();
        m_notReady[Python] = pythonProblem();
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
    }

    void roundTrip_data()
    {
        QTest::addColumn<int>("driver");
        QTest::addColumn<QString>("library"); // the driver's word for it
        QTest::addColumn<QByteArray>("prefix"); // of the name given to the library
        QTest::addColumn<QByteArray>("keyPrefix"); // what the library puts before that name in the key
        QTest::addColumn<QString>("expected"); // LockScope's `library`
        QTest::addColumn<QByteArray>("refusal"); // the library's own answer to a release of a lock it lost
        // The libraries that take the name verbatim get one in the default string lock pattern lock:*.
        QTest::newRow("redsync") << int(Go) << "redsync" << QByteArray("lock:") << QByteArray() << "redsync"
                                 << QByteArray("release-failed lock already taken");
        QTest::newRow("bsm-redislock") << int(Go) << "redislock" << QByteArray("lock:") << QByteArray()
                                       << "bsm-redislock" << QByteArray("release-failed redislock: lock not held");
        QTest::newRow("python-redis-lock") << int(Python) << "python-redis-lock" << QByteArray() << QByteArray("lock:")
                                           << "python-redis-lock" << QByteArray("release-failed NotAcquired");
        QTest::newRow("pottery-redlock") << int(Python) << "pottery" << QByteArray() << QByteArray("redlock:")
                                         << "redlock" << QByteArray("release-failed ReleaseUnlockedLock");
        QTest::newRow("redis-py") << int(Python) << "redis-py" << QByteArray("lock:") << QByteArray() << "redis-py"
                                  << QByteArray("release-failed LockNotOwnedError");
    }

    // Held by the library, shown as its own, force-released by us, taken by its next acquire at once; the old
    // holder's release is refused and leaves the new holder's lock alone, and nothing else in Redis changed.
    void roundTrip()
    {
        QFETCH(int, driver);
        QFETCH(QString, library);
        QFETCH(QByteArray, prefix);
        QFETCH(QByteArray, keyPrefix);
        QFETCH(QString, expected);
        QFETCH(QByteArray, refusal);
        const Driver d = Driver(driver);
        if (!m_notReady[d].isEmpty())
            QFAIL(qPrintable(m_notReady[d]));

        const QByteArray name = prefix + uniqueKey("interop");
        const QByteArray key = keyPrefix + name;
        // python-redis-lock's signal list, which its release pushes and ours too, for every lock:* name.
        const QByteArray signal = key.startsWith("lock:") ? "lock-signal:" + key.mid(5) : QByteArray();
        RawRedis raw(m_server.port());
        // Neighbours that must come out untouched: data, another string lock, a Redisson lock hash.
        QCOMPARE(raw.command({ "FLUSHALL" }).bytes(), QByteArray("OK"));
        raw.command({ "SET", "app:config", "{\"on\":true}" });
        raw.command({ "SET", "lock:neighbour", "0f1e2d3c4b5a69788796a5b4c3d2e1f0", "PX", "600000" });
        raw.command({ "HSET", "orders:42", "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:1", "1" });
        const QMap<QByteArray, QByteArray> before = others(raw, { key, signal });

        QProcess holder;
        start(holder, d, QStringLiteral("hold"), library, name);
        const QByteArray held = lineFrom(holder);
        QVERIFY2(held.startsWith("held "), (held + holder.readAllStandardError()).constData());
        const QByteArray token = held.mid(5);
        QCOMPARE(raw.get(key), token);

        const auto locks = listedLocks(m_server.url(), m_dir, QString::fromUtf8(key));
        QVERIFY(locks);
        QVERIFY2(locks->contains(QString::fromUtf8(key)),
            qPrintable(QStringLiteral("%1's lock %2 (value %3, PTTL %4) is not listed")
                           .arg(expected, QString::fromUtf8(key), QString::fromUtf8(token))
                           .arg(raw.pttl(key))));
        const QJsonObject lock = locks->value(QString::fromUtf8(key));
        const QByteArray shown = QJsonDocument(lock).toJson(QJsonDocument::Compact);
        QVERIFY2(lock.value(QStringLiteral("library")).toString() == expected,
            qPrintable(QStringLiteral("%1's lock is listed as library \"%2\": %3")
                           .arg(expected, lock.value(QStringLiteral("library")).toString(), QString::fromUtf8(shown))));
        const QJsonArray holders = lock.value(QStringLiteral("holders")).toArray();
        QVERIFY2(holders.size() == 1, shown.constData());
        QCOMPARE(holders.at(0).toObject().value(QStringLiteral("owner")).toString().toUtf8(), token);
        QVERIFY2(lock.value(QStringLiteral("ttl_ms")).toInteger() > 0, shown.constData());

        QCOMPARE(tryOnce(d, library, name), QByteArray("busy"));
        const CliRun force = cli({ QStringLiteral("force-release"), QString::fromUtf8(key), QStringLiteral("--yes") });
        CLI_EXIT(force, CliExit::Done);
        const QByteArray next = tryOnce(d, library, name);
        QVERIFY2(next.startsWith("acquired "),
            qPrintable(QStringLiteral("after our force release the library's own try said \"%1\"; the force "
                                      "release said: %2")
                           .arg(QString::fromUtf8(next), QString::fromUtf8(force.out + force.err))));
        const QByteArray successor = next.mid(9);
        QVERIFY(successor != token);
        QCOMPARE(raw.get(key), successor);

        holder.write("release\n");
        const QByteArray released = lineFrom(holder);
        QVERIFY2(released.startsWith(refusal),
            qPrintable(QStringLiteral("the old holder's release said \"%1\", expected \"%2...\"")
                           .arg(QString::fromUtf8(released), QString::fromUtf8(refusal))));
        QVERIFY(holder.waitForFinished(30000));
        QCOMPARE(raw.get(key), successor);
        QVERIFY(raw.pttl(key) > 0);

        // What a release left for python-redis-lock's waiters (its own, or ours on any lock:* name): one wake-up that
        // is gone within its second, as the library's own release leaves it.
        if (!signal.isEmpty()) {
            const RedisValue wake = raw.command({ "LRANGE", signal, "0", "-1" });
            QVERIFY2(
                wake.size() == 0 || (wake.size() == 1 && wake.at(0).bytes() == "1"), qPrintable(wake.toDebugString()));
            const qint64 wakeTtl = raw.pttl(signal);
            QVERIFY2(wakeTtl == -2 || (wakeTtl >= 0 && wakeTtl <= 1000), qPrintable(QString::number(wakeTtl)));
        }
        const QByteArray changed = differences(before, others(raw, { key, signal }));
        QVERIFY2(changed.isEmpty(), ("other keys changed: " + changed).constData());
    }

    // python-redis-lock's waiter sleeps in BLPOP on the lock's signal list for up to the lock's expire (ten minutes
    // here): our force release pushes there as the library's own release does, so the waiter has the lock at once.
    void pythonRedisLockWaiterWakesAtOnce()
    {
        if (!m_notReady[Python].isEmpty())
            QFAIL(qPrintable(m_notReady[Python]));
        const QString library = QStringLiteral("python-redis-lock");
        const QByteArray name = uniqueKey("interop-wait");
        const QByteArray key = "lock:" + name;
        RawRedis raw(m_server.port());
        QProcess holder, waiter;
        start(holder, Python, QStringLiteral("hold"), library, name, 600000);
        const QByteArray held = lineFrom(holder);
        QVERIFY2(held.startsWith("held "), (held + holder.readAllStandardError()).constData());
        start(waiter, Python, QStringLiteral("wait"), library, name, 600000);
        // Asleep in the library's BLPOP: a client of the server blocked on that command.
        QTRY_VERIFY_WITH_TIMEOUT(raw.command({ "CLIENT", "LIST" }).bytes().contains("cmd=blpop"), 30000);

        CLI_EXIT(
            cli({ QStringLiteral("force-release"), QString::fromUtf8(key), QStringLiteral("--yes") }), CliExit::Done);
        // Within the half minute lineFrom waits, far less than the ten minutes its BLPOP would sleep unwoken.
        const QByteArray acquired = lineFrom(waiter);
        QVERIFY2(acquired.startsWith("acquired "), (acquired + waiter.readAllStandardError()).constData());
        QCOMPARE(raw.get(key), acquired.mid(9));
        QVERIFY(waiter.waitForFinished(30000));
        holder.write("release\n");
        QVERIFY2(lineFrom(holder).startsWith("release-failed"), "the old holder's release was not refused");
        QVERIFY(holder.waitForFinished(30000));
        raw.command({ "DEL", key });
    }
};

QTEST_GUILESS_MAIN(TestLibInterop)
#include "tst_libinterop.moc"
