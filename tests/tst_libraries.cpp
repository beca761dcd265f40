// The other lock libraries of a mixed fleet against a real server (docs/protocol/libraries.md): each library's lock,
// written as that library writes it, is found with no configuration (or with its declared pattern) among look-alike
// noise, named with its evidence and its holder decoded; a force release wakes the waiters the library's own release
// wakes (python-redis-lock's signal list, a Spring registry's channels); and a real redis-py client, from Debian's
// python3-redis, sees its lock shown and takes it again at once after our force release.
#include "clirun.h"
#include "kinds/locklibraries.h"
#include "rawredis.h"
#include "redisserver.h"
#include "testutil.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
// Debian's python3-redis is installed for the system interpreter, whatever python3 comes first on PATH.
const QString systemPython = QStringLiteral("/usr/bin/python3");
} // namespace

class TestLibraries : public QObject
{
    Q_OBJECT
    RedisServer m_server;
    QTemporaryDir m_dir;

    CliRun cli(QStringList args) { return runCli(args << QStringLiteral("--url") << m_server.url(), m_dir); }

    // The locks `list --json` shows among names matching glob, by name; nothing (the test failed) when list failed.
    std::optional<QHash<QString, QJsonObject>> listed(const QString &glob, const QStringList &extra = {})
    {
        return listedLocks(m_server.url(), m_dir, glob, extra);
    }

    // Runs a few lines of Python against the test's server with redis-py; its standard output, trimmed.
    QByteArray python(const QString &code, bool *ok)
    {
        QProcess p;
        p.start(systemPython,
            { QStringLiteral("-c"),
                QStringLiteral("import redis, sys\nr = redis.Redis(host='127.0.0.1', port=%1)\n").arg(m_server.port())
                    + code });
        *ok = p.waitForFinished(30000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
        if (!*ok)
            qWarning("python: %s", p.readAllStandardError().constData());
        return p.readAllStandardOutput().trimmed();
    }

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
    }

    void everyLibraryIsFoundWithItsHolder_data()
    {
        QTest::addColumn<QByteArray>("name");
        QTest::addColumn<QByteArray>("token");
        QTest::addColumn<qint64>("ttlMs"); // 0: none
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<QString>("library");
        QTest::addColumn<QString>("confidence");
        QTest::addColumn<QString>("detail"); // "field=value" of the holder, or empty
        const QByteArray u = uniqueKey("lib");
        const QStringList none;
        QTest::newRow("shedlock") << "job-lock:default:" + u << QByteArray("ADDED:2026-11-25T06:10:00.123Z@worker-7")
                                  << qint64(60000) << none << "shedlock"
                                  << "high"
                                  << "host=worker-7";
        QTest::newRow("shedlock since") << "job-lock:prod:" + u << QByteArray("ADDED:2026-11-25T06:10:00.123Z@w8")
                                        << qint64(60000) << none << "shedlock"
                                        << "high"
                                        << "since=2026-11-25T06:10:00.123Z";
        QTest::newRow("python-redis-lock, no TTL")
            << "lock:" + u + ":invoices" << QByteArray("AbCdEfGhIjKlMnOpQrSt+v12") << qint64(0) << none
            << "python-redis-lock"
            << "high" << QString();
        QTest::newRow("redis-py, no TTL") << "lock:" + u + ":report" << QByteArray("6fa459ea0eba11efb1a50242ac120002")
                                          << qint64(0) << none << "redis-py"
                                          << "medium"
                                          << "node=02:42:ac:12:00:02";
        QTest::newRow("redsync") << "lock:" + u + ":go" << QByteArray("AbCdEfGhIjKlMnOpQrStUw==") << qint64(8000)
                                 << none << "redsync"
                                 << "medium" << QString();
        QTest::newRow("bsm-redislock") << "lock:" + u + ":bsm" << QByteArray("AbCdEfGhIjKl-_OpQrStUv") << qint64(8000)
                                       << none << "bsm-redislock"
                                       << "medium" << QString();
        QTest::newRow("node-redlock") << "lock:" + u + ":node" << QByteArray("0123456789abcdef0123456789abcdef")
                                      << qint64(8000) << none << "node-redlock"
                                      << "medium" << QString();
        QTest::newRow("redis-semaphore mutex") << "mutex:" + u << QByteArray("3b241101-e2bb-4255-8caf-4136c566a962")
                                               << qint64(10000) << none << "redis-semaphore"
                                               << "high" << QString();
        QTest::newRow("redlock (pottery, RedLock.net)")
            << "redlock:" + u << QByteArray("3b241101-e2bb-1255-8caf-4136c566a962") << qint64(10000) << none
            << "redlock"
            << "high" << QString();
        QTest::newRow("laravel unique job") << "laravel_database_laravel_cache_laravel_unique_job:" + u
                                            << QByteArray("AbCdEfGhIjKlMnOp") << qint64(0) << none << "laravel"
                                            << "high" << QString();
        QTest::newRow("distributedlock") << "lock:" + u + ":net"
                                         << QByteArray("WEB_01_4242_0123456789abcdef0123456789abcdef") << qint64(30000)
                                         << none << "distributedlock"
                                         << "medium"
                                         << "pid=4242";
        QTest::newRow("spring, declared")
            << "orders-" + u + ":42" << QByteArray("3b241101-e2bb-4255-8caf-4136c566a962") << qint64(60000)
            << QStringList { QStringLiteral("--layout-pattern"),
                   QStringLiteral("spring=orders-%1:*").arg(QString::fromLatin1(u)) }
            << "spring"
            << "high" << QString();
        QTest::newRow("generic") << "lock:" + u + ":plain" << QByteArray("hello") << qint64(60000) << none << "string"
                                 << "medium" << QString();
    }

    void everyLibraryIsFoundWithItsHolder()
    {
        QFETCH(QByteArray, name);
        QFETCH(QByteArray, token);
        QFETCH(qint64, ttlMs);
        QFETCH(QStringList, options);
        QFETCH(QString, library);
        QFETCH(QString, confidence);
        QFETCH(QString, detail);
        RawRedis raw(m_server.port());
        if (ttlMs > 0)
            raw.command({ "SET", name, token, "PX", QByteArray::number(ttlMs) });
        else
            raw.command({ "SET", name, token });
        const auto locks = listed(QString::fromUtf8(name), options);
        QVERIFY(locks);
        const QJsonObject lock = locks->value(QString::fromUtf8(name));
        QVERIFY2(!lock.isEmpty(), name.constData());
        QCOMPARE(lock.value(QStringLiteral("kind")).toString(), QStringLiteral("string"));
        QCOMPARE(lock.value(QStringLiteral("library")).toString(), library);
        QCOMPARE(lock.value(QStringLiteral("confidence")).toString(), confidence);
        const QJsonObject holder = lock.value(QStringLiteral("holders")).toArray().first().toObject();
        QCOMPARE(holder.value(QStringLiteral("owner")).toString().toUtf8(), token);
        if (!detail.isEmpty()) {
            const QString field = detail.section(QLatin1Char('='), 0, 0);
            const QString value = detail.section(QLatin1Char('='), 1);
            QCOMPARE(holder.value(field).toVariant().toString(), value);
        }
        const QStringList warnings = lock.value(QStringLiteral("warnings")).toVariant().toStringList();
        // A lock with no TTL is the classic stuck lock: shown, and said to never expire.
        QCOMPARE(warnings.filter(QStringLiteral("never expires")).size(), ttlMs > 0 ? 0 : 1);
        raw.command({ "DEL", name });
    }

    void sharedShapesNameTheOtherLibraries()
    {
        RawRedis raw(m_server.port());
        const QByteArray name = "lock:" + uniqueKey("shared");
        raw.command({ "SET", name, "3b241101-e2bb-4255-8caf-4136c566a962", "PX", "60000" });
        const auto locks = listed(QString::fromUtf8(name));
        QVERIFY(locks);
        const QJsonObject lock = locks->value(QString::fromUtf8(name));
        // A bare UUID outside redis-semaphore's and redlock's prefixes: Spring's shape, and only Spring's.
        QCOMPARE(lock.value(QStringLiteral("library")).toString(), QStringLiteral("spring"));
        QCOMPARE(lock.value(QStringLiteral("confidence")).toString(), QStringLiteral("medium"));
        const QByteArray hex = "lock:" + uniqueKey("hex");
        raw.command({ "SET", hex, "6fa459ea0eba11efb1a50242ac120002", "PX", "60000" });
        const auto hexLocks = listed(QString::fromUtf8(hex));
        QVERIFY(hexLocks);
        const QJsonObject uuid1 = hexLocks->value(QString::fromUtf8(hex));
        QCOMPARE(uuid1.value(QStringLiteral("library")).toString(), QStringLiteral("redis-py"));
        const QStringList evidence = uuid1.value(QStringLiteral("evidence")).toVariant().toStringList();
        QCOMPARE(evidence.filter(QStringLiteral("the same shape fits: node-redlock")).size(), 1);
    }

    void lookAlikesAreNoLocks()
    {
        RawRedis raw(m_server.port());
        const QByteArray u = uniqueKey("noise");
        // Inside the default patterns, but data: a counter, a value that never expires, a leased mutex whose library
        // always leases, 32 random hex with no TTL, a JSON document, a Redisson semaphore's permits.
        raw.command({ "SET", "lock:" + u + ":counter", "5", "PX", "60000" });
        raw.command({ "SET", "lock:" + u + ":config", R"({"a":1})" });
        raw.command({ "SET", "mutex:" + u + ":nottl", "3b241101-e2bb-4255-8caf-4136c566a962" });
        raw.command({ "SET", "lock:" + u + ":hex", "0123456789abcdef0123456789abcdef" });
        raw.command({ "SET", "job-lock:" + u + ":json", R"({"job":"x"})" });
        raw.command({ "SET", "redlock:" + u + ":permits", "3" });
        // Outside them: sessions and caches with tokens of every shape, hashes, sorted sets and lists.
        raw.command({ "SET", "session:" + u, "6fa459ea0eba11efb1a50242ac120002", "PX", "60000" });
        raw.command({ "SET", "cache:" + u, "AbCdEfGhIjKlMnOpQrSt+v12", "PX", "60000" });
        raw.command({ "HSET", "user:" + u, "name", "ada", "mode", "write" });
        raw.command({ "ZADD", "semaphore-like:" + u, "1", "3b241101-e2bb-4255-8caf-4136c566a962" });
        raw.command({ "RPUSH", "lock-signal:" + u, "1" });
        // Nothing listed, from a list that worked (a list that failed lists nothing too).
        const auto locks = listed(QStringLiteral("*%1*").arg(QString::fromLatin1(u)));
        QVERIFY(locks);
        QCOMPARE(locks->keys(), QStringList());
    }

    void forceReleaseWakesAPythonRedisLockWaiter()
    {
        RawRedis raw(m_server.port());
        const QByteArray u = uniqueKey("prl");
        const QByteArray name = "lock:" + u;
        const QByteArray token = "AbCdEfGhIjKlMnOpQrSt+v12";
        raw.command({ "SET", name, token }); // python-redis-lock's default: no expiry
        // Its waiter, as its acquire does it: BLPOP on the signal list, here for ever.
        RawRedis waiter(m_server.port());
        waiter.append({ "BLPOP", "lock-signal:" + u, "0" });
        waiter.flush();
        QTRY_VERIFY(raw.clientRunning("blpop"));
        const CliRun r = cli({ QStringLiteral("force-release"), QString::fromUtf8(name), QStringLiteral("--yes") });
        CLI_EXIT(r, CliExit::Done);
        QVERIFY2(r.out.contains("lock-signal:" + u), r.out.constData());
        bool timedOut = false;
        const RedisValue woken = waiter.readReply(20000, &timedOut);
        QVERIFY(!timedOut);
        QCOMPARE(woken.at(0).bytes(), "lock-signal:" + u);
        QCOMPARE(raw.type(name), "none");
        // The push expires as the library's own does: a later waiter blocks again rather than reading a stale wake-up.
        const qint64 signalTtl = raw.pttl("lock-signal:" + u);
        QVERIFY(signalTtl == -2 || (signalTtl > 0 && signalTtl <= 1000));
    }

    void releaseOnTheOwnersBehalfWakesLikeItsOwnRelease()
    {
        RawRedis raw(m_server.port());
        const QByteArray u = uniqueKey("prlrel");
        const QByteArray name = "lock:" + u;
        const QByteArray token = "ZbCdEfGhIjKlMnOpQrSt+v12";
        raw.command({ "SET", name, token, "EX", "60" });
        RawRedis waiter(m_server.port());
        waiter.append({ "BLPOP", "lock-signal:" + u, "0" });
        waiter.flush();
        QTRY_VERIFY(raw.clientRunning("blpop"));
        const CliRun r = cli({ QStringLiteral("release"), QString::fromUtf8(name), QStringLiteral("--owner"),
            QString::fromUtf8(token) });
        CLI_EXIT(r, CliExit::Done);
        bool timedOut = false;
        QCOMPARE(waiter.readReply(20000, &timedOut).at(0).bytes(), "lock-signal:" + u);
        QVERIFY(!timedOut);
    }

    void forceReleaseTellsSpringPubSubWaiters()
    {
        RawRedis raw(m_server.port());
        const QByteArray registry = "reg-" + uniqueKey("spring");
        const QByteArray name = registry + ":orders:42";
        raw.command({ "SET", name, "3b241101-e2bb-4255-8caf-4136c566a962", "PX", "60000" });
        // Current registries PSUBSCRIBE "<registry>-channel:*"; 5.5 to 6.x SUBSCRIBE "<registry>-channel".
        RawRedis current(m_server.port());
        current.append({ "PSUBSCRIBE", registry + "-channel:*" });
        QCOMPARE(current.readReply(5000).at(0).bytes(), "psubscribe");
        RawRedis older(m_server.port());
        older.append({ "SUBSCRIBE", registry + "-channel" });
        QCOMPARE(older.readReply(5000).at(0).bytes(), "subscribe");
        const CliRun r = cli({ QStringLiteral("force-release"), QString::fromUtf8(name), QStringLiteral("--yes"),
            QStringLiteral("--layout-pattern"), QStringLiteral("spring=%1:*").arg(QString::fromUtf8(registry)) });
        CLI_EXIT(r, CliExit::Done);
        const RedisValue heard = current.readReply(20000);
        QCOMPARE(heard.at(0).bytes(), "pmessage");
        QCOMPARE(heard.at(2).bytes(), registry + "-channel:" + name);
        QCOMPARE(heard.at(3).bytes(), name);
        const RedisValue heardOld = older.readReply(20000);
        QCOMPARE(heardOld.at(0).bytes(), "message");
        QCOMPARE(heardOld.at(2).bytes(), name);
        QCOMPARE(raw.type(name), "none");
    }

    void layoutOptionsAreChecked()
    {
        const CliRun bad
            = cli({ QStringLiteral("list"), QStringLiteral("--layout-pattern"), QStringLiteral("nope=x:*") });
        CLI_REFUSED(bad, CliExit::Usage, "--layout-pattern");
        const CliRun noGlob
            = cli({ QStringLiteral("list"), QStringLiteral("--layout-pattern"), QStringLiteral("spring") });
        CLI_REFUSED(noGlob, CliExit::Usage, "--layout-pattern");
        const CliRun badLibrary = cli({ QStringLiteral("list"), QStringLiteral("--library"), QStringLiteral("java") });
        CLI_REFUSED(badLibrary, CliExit::Usage, "redisson");
    }

    void everyLibraryOfTheRegistryIsAFilter()
    {
        // The one registry of library ids (kinds/locklibraries.h), which JSON's "library" comes from: each id is a
        // filter list takes. The layouts' own libraries were once missing from the CLI's private list.
        const QList<QByteArray> ids = LockLibraries::ids();
        for (const char *id : { "redisson", "string", "shedlock", "symfony", "sidekiq-unique-jobs", "redis-semaphore" })
            QVERIFY2(ids.contains(id), id);
        for (const QByteArray &id : ids) {
            const CliRun r = cli({ QStringLiteral("list"), QStringLiteral("--json"), QStringLiteral("--library"),
                QString::fromLatin1(id), QStringLiteral("--pattern"), QStringLiteral("no-such-key-*") });
            QVERIFY2(r.exitCode == 0,
                qPrintable(QStringLiteral("--library %1: exit %2, %3")
                               .arg(QString::fromLatin1(id))
                               .arg(r.exitCode)
                               .arg(QString::fromUtf8(r.err))));
            QCOMPARE(QJsonDocument::fromJson(r.out).array().size(), 0);
        }
        // Every id but the generic "string" names a library whose keys can be declared.
        for (const QByteArray &id : LockLibraries::declarable()) {
            const CliRun r = cli({ QStringLiteral("list"), QStringLiteral("--json"), QStringLiteral("--layout-pattern"),
                QString::fromLatin1(id) + QStringLiteral("=no-such-key-*"), QStringLiteral("--pattern"),
                QStringLiteral("no-such-key-*") });
            QVERIFY2(r.exitCode == 0, qPrintable(QString::fromLatin1(id) + QString::fromUtf8(r.err)));
        }
        QVERIFY(!LockLibraries::declarable().contains("string"));
    }

    void symfonyAndSidekiqLocksAreListedByTheirLibrary()
    {
        // Tried as a new user would: `list --library symfony` was a usage error although JSON writes "symfony".
        RawRedis raw(m_server.port());
        const QByteArray u = uniqueKey("bylib");
        // A Symfony RedisStore exclusive hold, as its save() writes it (its names are declared: they have no prefix).
        const QByteArray store = "invoice:" + u;
        const QByteArray expiry = QByteArray::number(QDateTime::currentMSecsSinceEpoch() + 600000);
        raw.command({ "ZADD", store, expiry, "q0VxZ0lYb2d1cW5kSzZ4cUhGbE9qM2JzU0FtN2J4eU0=" });
        raw.command({ "ZADD", store, expiry, "__write__" });
        raw.command({ "PEXPIREAT", store, expiry });
        // A sidekiq-unique-jobs digest locked by a job, as its lock.lua leaves it, under the default prefix.
        const QByteArray digest = "uniquejobs:" + QCryptographicHash::hash(u, QCryptographicHash::Md5).toHex();
        raw.command({ "ZADD", "uniquejobs:digests", "1764000000.5", digest });
        raw.command({ "HSET", digest + ":LOCKED", "0123456789abcdef01234567", "1764000000.123456" });
        raw.command({ "PEXPIRE", digest + ":LOCKED", "600000" });
        // And a Redisson lock beside them, which neither of their filters shows.
        raw.command({ "HSET", "orders:" + u, "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:1", "1" });
        raw.command({ "PEXPIRE", "orders:" + u, "600000" });

        const QString glob = QStringLiteral("*%1*").arg(QString::fromLatin1(u));
        const QStringList declared { QStringLiteral("--layout-pattern"), QStringLiteral("symfony=invoice:*") };
        // The names list shows among those matching pattern when it is asked for library's locks only.
        const auto only = [&](const char *library, const QString &pattern) {
            const CliRun r
                = cli(QStringList { QStringLiteral("--json"), QStringLiteral("list"), QStringLiteral("--pattern"),
                          pattern, QStringLiteral("--library"), QString::fromLatin1(library) }
                    + declared);
            QStringList names;
            if (r.exitCode != 0) {
                qWarning("list --library %s: exit %d, %s", library, r.exitCode, r.err.constData());
                return QStringList { QStringLiteral("(exit %1)").arg(r.exitCode) };
            }
            for (const QJsonValue &v : QJsonDocument::fromJson(r.out).array())
                names << v.toObject().value(QStringLiteral("name")).toString();
            return names;
        };
        const QString digestGlob = QStringLiteral("%1*").arg(QString::fromLatin1(digest));
        QCOMPARE(only("symfony", glob), QStringList { QString::fromUtf8(store) });
        QCOMPARE(only("sidekiq-unique-jobs", digestGlob), QStringList { QString::fromUtf8(digest + ":LOCKED") });
        QCOMPARE(only("redisson", glob), QStringList { QStringLiteral("orders:") + QString::fromLatin1(u) });
        QCOMPARE(only("redisson", digestGlob), QStringList());
        QCOMPARE(only("sidekiq-unique-jobs", glob), QStringList());
    }

    void listFiltersByLibraryAndPrintsOneObjectPerLine()
    {
        RawRedis raw(m_server.port());
        const QByteArray u = uniqueKey("filter");
        raw.command({ "SET", "job-lock:default:" + u, "ADDED:2026-11-25T06:10:00.123Z@h", "PX", "60000" });
        raw.command({ "SET", "mutex:" + u, "3b241101-e2bb-4255-8caf-4136c566a962", "PX", "60000" });
        raw.command({ "HSET", "orders:" + u, "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:1", "1" });
        raw.command({ "PEXPIRE", "orders:" + u, "60000" });
        const QString glob = QStringLiteral("*%1*").arg(QString::fromLatin1(u));
        const CliRun all
            = cli({ QStringLiteral("list"), QStringLiteral("--jsonl"), QStringLiteral("--pattern"), glob });
        CLI_EXIT(all, CliExit::Done);
        const QList<QByteArray> lines = all.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 3);
        QStringList libraries;
        for (const QByteArray &line : lines)
            libraries << QJsonDocument::fromJson(line).object().value(QStringLiteral("library")).toString();
        libraries.sort();
        QCOMPARE(libraries,
            (QStringList {
                QStringLiteral("redis-semaphore"), QStringLiteral("redisson"), QStringLiteral("shedlock") }));
        const auto shed = listed(glob, { QStringLiteral("--library"), QStringLiteral("shedlock") });
        QVERIFY(shed);
        QCOMPARE(shed->keys(), QStringList { QStringLiteral("job-lock:default:") + QString::fromLatin1(u) });
    }

    void redisPyLockIsShownAndFreeAtOnceAfterAForceRelease_data()
    {
        QTest::addColumn<QString>("timeout");
        QTest::newRow("default: no TTL") << QStringLiteral("None");
        QTest::newRow("with a timeout") << QStringLiteral("60");
    }

    void redisPyLockIsShownAndFreeAtOnceAfterAForceRelease()
    {
        QFETCH(QString, timeout);
        const QString name = QStringLiteral("lock:") + QString::fromLatin1(uniqueKey("redispy"));
        bool ok = false;
        // The token redis-py drew (a uuid1), printed by the client that holds it.
        const QByteArray token = python(QStringLiteral("l = r.lock('%1', timeout=%2)\n"
                                                       "assert l.acquire(blocking=False)\n"
                                                       "print(l.local.token.decode())\n")
                                            .arg(name, timeout),
            &ok);
        QVERIFY2(ok, "redis-py (Debian python3-redis) must be installed for /usr/bin/python3");
        const auto locks = listed(name);
        QVERIFY(locks);
        const QJsonObject lock = locks->value(name);
        QCOMPARE(lock.value(QStringLiteral("library")).toString(), QStringLiteral("redis-py"));
        const QJsonObject holder = lock.value(QStringLiteral("holders")).toArray().first().toObject();
        QCOMPARE(holder.value(QStringLiteral("owner")).toString().toUtf8(), token);
        // A version 1 UUID says when it was drawn: now, give or take the clocks of one machine.
        const QDateTime since
            = QDateTime::fromString(holder.value(QStringLiteral("since")).toString(), Qt::ISODateWithMs);
        QVERIFY(since.isValid());
        QVERIFY(qAbs(since.secsTo(QDateTime::currentDateTimeUtc())) < 3600);
        QCOMPARE(lock.value(QStringLiteral("ttl_ms")).toInteger() == -1, timeout == QStringLiteral("None"));
        // Another redis-py client cannot take it ...
        QCOMPARE(python(QStringLiteral("print(r.lock('%1').acquire(blocking=False))").arg(name), &ok), "False");
        const CliRun r = cli({ QStringLiteral("force-release"), name, QStringLiteral("--yes") });
        CLI_EXIT(r, CliExit::Done);
        // ... until our force release, after which it takes it at once; the first holder's own release then finds
        // another token and fails as redis-py reports it (LockNotOwnedError), leaving the new holder alone.
        QCOMPARE(python(QStringLiteral("l = r.lock('%1')\nprint(l.acquire(blocking=False))\n"
                                       "from redis.lock import Lock\n"
                                       "old = Lock(r, '%1')\nold.local.token = b'%2'\n"
                                       "try:\n    old.release()\nexcept redis.exceptions.LockNotOwnedError:\n"
                                       "    print('not owned')\n"
                                       "print(r.get('%1') == l.local.token)\n")
                            .arg(name, QString::fromLatin1(token)),
                     &ok),
            "True\nnot owned\nTrue");
    }
};

QTEST_GUILESS_MAIN(TestLibraries)
#include "tst_libraries.moc"
