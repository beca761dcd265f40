// sidekiq-unique-jobs' locks (docs/protocol/libraries.md#sidekiq-unique-jobs), written with raw commands as its lock
// script writes them: the <digest>:LOCKED hash of job ids is listed under the default prefix with no configuration and
// its jobs as holders, while look-alike hashes are not; a release is the library's unlock of one job (the digest's keys
// go with the last one, and the sentinel on :QUEUED wakes a job blocked waiting); a force release is its
// delete-by-digest under the guard of the jobs shown, waking the waiting job the same way.
#include "clirun.h"
#include "rawredis.h"
#include "redisserver.h"
#include "testutil.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
const QByteArray jobA = "0123456789abcdef01234567";
const QByteArray jobB = "89abcdef0123456789abcdef";

// A digest as the library makes one: its prefix, then the MD5 of the job's unique arguments in hex.
QByteArray digestFor(const char *what)
{
    return "uniquejobs:" + QCryptographicHash::hash(uniqueKey(what), QCryptographicHash::Md5).toHex();
}
} // namespace

class TestUniqueJobs : public QObject
{
    Q_OBJECT
    RedisServer m_server;
    QTemporaryDir m_dir;

    CliRun cli(QStringList args) { return runCli(args << QStringLiteral("--url") << m_server.url(), m_dir); }

    // As lock.lua leaves a digest locked by a job: the digest in the digests set, the job in LOCKED with its time.
    void lockDigest(RawRedis &raw, const QByteArray &digest, const QByteArray &job, bool ttl)
    {
        raw.command({ "ZADD", "uniquejobs:digests", "1764000000.5", digest });
        raw.command({ "HSET", digest + ":LOCKED", job, "1764000000.123456" });
        raw.command({ "SET", digest + ":INFO", "{\"worker\":\"ReportJob\"}" });
        if (ttl)
            raw.command({ "PEXPIRE", digest + ":LOCKED", "60000" });
    }

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
    }

    void foundUnderTheDefaultPrefix()
    {
        const QByteArray digest = digestFor("found");
        RawRedis raw(m_server.port());
        lockDigest(raw, digest, jobA, false);
        // Look-alikes: another hash under the prefix, job ids in a hash elsewhere.
        raw.command({ "HSET", digest + ":INFO2", "worker", "ReportJob" });
        raw.command({ "HSET", "jobs:" + digest + ":LOCKED", jobA, "1764000000.1" });

        const auto locks = listedLocks(m_server.url(), m_dir, QStringLiteral("*%1*").arg(QString::fromUtf8(digest)));
        QVERIFY(locks);
        QCOMPARE(locks->keys(), QStringList { QString::fromUtf8(digest + ":LOCKED") });
        const QJsonObject lock = locks->value(QString::fromUtf8(digest + ":LOCKED"));
        QCOMPARE(lock.value(QStringLiteral("kind")).toString(), QStringLiteral("unique-job"));
        QCOMPARE(lock.value(QStringLiteral("library")).toString(), QStringLiteral("sidekiq-unique-jobs"));
        const QJsonArray holders = lock.value(QStringLiteral("holders")).toArray();
        QCOMPARE(holders.size(), 1);
        QCOMPARE(holders.at(0).toObject().value(QStringLiteral("owner")).toString().toUtf8(), jobA);
        // No lock_ttl: the classic stuck unique job, pointed out.
        QCOMPARE(lock.value(QStringLiteral("ttl_ms")).toInteger(), -1);
        QCOMPARE(lock.value(QStringLiteral("warnings")).toArray().size(), 1);
    }

    // The last job's release takes the digest's keys with it and pushes the sentinel a waiting job blocks on.
    void releaseIsTheLibrarysUnlock()
    {
        const QByteArray digest = digestFor("rel");
        RawRedis raw(m_server.port());
        lockDigest(raw, digest, jobA, true);
        raw.command({ "HSET", digest + ":LOCKED", jobB, "1764000001.5" }); // a lock with a limit of two
        CliRun r = cli({ QStringLiteral("release"), QString::fromUtf8(digest + ":LOCKED"), QStringLiteral("--owner"),
            QString::fromUtf8(jobA) });
        CLI_EXIT(r, CliExit::Done);
        QCOMPARE(raw.command({ "HKEYS", digest + ":LOCKED" }).elements().size(), 1);
        QVERIFY(!raw.command({ "ZSCORE", "uniquejobs:digests", digest }).isNil()); // still locked by jobB

        r = cli({ QStringLiteral("release"), QString::fromUtf8(digest + ":LOCKED"), QStringLiteral("--owner"),
            QString::fromUtf8(jobB) });
        CLI_EXIT(r, CliExit::Done);
        QCOMPARE(raw.command({ "EXISTS", digest + ":LOCKED", digest + ":INFO" }).toInteger(), 0);
        QVERIFY(raw.command({ "ZSCORE", "uniquejobs:digests", digest }).isNil());
        // One sentinel per unlock, as the library's own pushes, and gone in five seconds.
        QCOMPARE(raw.command({ "LRANGE", digest + ":QUEUED", "0", "-1" }).elements().size(), 2);
        QVERIFY(raw.command({ "PTTL", digest + ":QUEUED" }).toInteger() > 0);

        // Not a holder, or not a job id: nothing happens.
        r = cli({ QStringLiteral("release"), QString::fromUtf8(digest + ":LOCKED"), QStringLiteral("--owner"),
            QString::fromUtf8(jobB) });
        CLI_REFUSED(r, CliExit::NotDone, "not locked by current thread");
    }

    // A job blocked waiting for the lock (BLMOVE on :QUEUED, as a while_executing lock waits) wakes when we force
    // release; a guard naming a job that no longer holds it changes nothing.
    void forceReleaseWakesTheWaitingJob()
    {
        const QByteArray digest = digestFor("force");
        RawRedis raw(m_server.port());
        lockDigest(raw, digest, jobA, false);
        CliRun r = cli({ QStringLiteral("force-release"), QString::fromUtf8(digest + ":LOCKED"),
            QStringLiteral("--expect-owner"), QString::fromUtf8(jobB), QStringLiteral("--yes") });
        CLI_REFUSED(r, CliExit::NotDone, "is not held by " + jobB);
        QCOMPARE(raw.command({ "HLEN", digest + ":LOCKED" }).toInteger(), 1);

        RawRedis waiter(m_server.port());
        waiter.append({ "BLMOVE", digest + ":QUEUED", digest + ":PRIMED", "RIGHT", "LEFT", "0" });
        waiter.flush();
        QTRY_VERIFY(raw.clientRunning("blmove"));
        r = cli({ QStringLiteral("force-release"), QString::fromUtf8(digest + ":LOCKED"), QStringLiteral("--yes") });
        CLI_EXIT(r, CliExit::Done);
        QVERIFY2(r.out.contains(digest + ":QUEUED"), r.out.constData()); // says whom it woke
        bool timedOut = false;
        QCOMPARE(waiter.readReply(20000, &timedOut).bytes(), QByteArray("1"));
        QVERIFY(!timedOut);
        QCOMPARE(raw.command({ "EXISTS", digest + ":LOCKED", digest + ":INFO" }).toInteger(), 0);
        QVERIFY(raw.command({ "ZSCORE", "uniquejobs:digests", digest }).isNil());
    }
};

QTEST_GUILESS_MAIN(TestUniqueJobs)
#include "tst_uniquejobs.moc"
