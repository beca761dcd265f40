// The write path reads a name once before it acts (docs/design.md#the-write-path): the reading that decides the
// layout is the one the script's guard compares against. Counted from the server's side (MONITOR): each reading reads
// the key's TTL once with it, so the PTTLs of the name sent before the script that writes are the readings it made.
// A --yes force release or a release reads once; a force release at the prompt never more than twice, and a
// guarded reading never probes the kind apart from it (HEXISTS of the mode field, EXISTS of its aux keys).
#include "clirun.h"
#include "kinds/locknames.h"
#include "processsockets.h"
#include "rawredis.h"
#include "redisserver.h"
#include "testutil.h"

#include <QDateTime>
#include <QTemporaryDir>
#include <QTest>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
const QByteArray kHolder = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:731";
const QByteArray kWaiter = "0b5b1f6e-2f0e-4d5c-9a4b-1c2d3e4f5a6b:42";

struct Reads
{
    int readings = 0; // PTTL of the name before the write
    int probes = 0; // a kind probe's own reads of the name (outside a reading's pipeline: HEXISTS name mode)
    bool wrote = false; // the script that writes ran
    QStringList lines;
};

// What the client connections sent before the first script naming `name`: lines from scripts (their own reads) and
// the test's marks are left out.
Reads countReads(const QList<QPair<quint16, QByteArray>> &log, const QByteArray &name)
{
    Reads r;
    const QByteArray quoted = '"' + name + '"';
    for (const auto &[port, line] : log) {
        if (port == 0)
            continue; // a mark, or a command a script ran
        r.lines << QString::fromUtf8(line.left(160));
        if ((line.startsWith("\"EVALSHA\"") || line.startsWith("\"EVAL\"")) && line.contains(quoted)) {
            r.wrote = true;
            break;
        }
        if (line == "\"PTTL\" " + quoted)
            ++r.readings;
        if (line.startsWith("\"HEXISTS\" " + quoted + " \"mode\""))
            ++r.probes;
    }
    return r;
}
} // namespace

class TestWritePath : public QObject
{
    Q_OBJECT
    RedisServer m_server;
    QTemporaryDir m_dir;

    CliRun cli(const QStringList &args) const
    {
        return runCli(args + QStringList { QStringLiteral("--url"), m_server.url() }, m_dir);
    }

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
    }

    void oneReadingBeforeEachWrite_data()
    {
        QTest::addColumn<QByteArray>("layout");
        QTest::addColumn<bool>("force");
        for (const char *layout : { "reentrant", "fair", "readwrite", "fenced" }) {
            QTest::newRow((QByteArray(layout) + " force-release --yes").constData()) << QByteArray(layout) << true;
            QTest::newRow((QByteArray(layout) + " release").constData()) << QByteArray(layout) << false;
        }
    }

    void oneReadingBeforeEachWrite()
    {
        QFETCH(QByteArray, layout);
        QFETCH(bool, force);
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("write-path-" + layout);
        QByteArray owner = kHolder;
        if (layout == "readwrite") {
            owner += ":write";
            raw.command({ "HSET", name, "mode", "write", owner, "1" });
        } else {
            raw.command({ "HSET", name, owner, "1" });
        }
        raw.command({ "PEXPIRE", name, "600000" });
        if (layout == "fair") {
            raw.command({ "RPUSH", LockNames::fairQueue(name), kWaiter });
            raw.command({ "ZADD", LockNames::fairTimeouts(name),
                QByteArray::number(QDateTime::currentMSecsSinceEpoch() + 600000), kWaiter });
        }
        if (layout == "fenced")
            raw.command({ "SET", LockNames::fencingToken(name), "3" });

        ServerCommandLog log(m_server.port());
        QVERIFY(log.started());
        const CliRun r = force
            ? cli({ QStringLiteral("force-release"), QString::fromUtf8(name), QStringLiteral("--yes") })
            : cli({ QStringLiteral("release"), QString::fromUtf8(name), QStringLiteral("--owner"),
                QString::fromUtf8(owner) });
        CLI_EXIT(r, CliExit::Done);
        QCOMPARE(raw.type(name), "none");
        const Reads reads = countReads(log.readUntil("end"), name);
        const QString seen = reads.lines.join(QLatin1Char('\n'));
        QVERIFY2(reads.wrote, qPrintable(seen));
        QVERIFY2(reads.readings == 1, qPrintable(QStringLiteral("%1 readings:\n%2").arg(reads.readings).arg(seen)));
        QVERIFY2(reads.probes == 0, qPrintable(QStringLiteral("%1 kind probes:\n%2").arg(reads.probes).arg(seen)));
    }

    void openingALatchReadsItOnce()
    {
        // The count the reading shows becomes the guard, and nothing reads the latch again before it opens.
        RawRedis raw(m_server.port());
        const QByteArray name = "latch:" + uniqueKey("write-path");
        raw.command({ "SET", name, "3" });
        ServerCommandLog log(m_server.port());
        QVERIFY(log.started());
        const CliRun r = cli({ QStringLiteral("open-latch"), QString::fromUtf8(name), QStringLiteral("--yes"),
            QStringLiteral("--layout-pattern"), QStringLiteral("redisson=latch:*") });
        CLI_EXIT(r, CliExit::Done);
        QCOMPARE(raw.type(name), "none");
        const Reads reads = countReads(log.readUntil("end"), name);
        const QString seen = reads.lines.join(QLatin1Char('\n'));
        QVERIFY2(reads.wrote, qPrintable(seen));
        QVERIFY2(reads.readings == 1, qPrintable(QStringLiteral("%1 readings:\n%2").arg(reads.readings).arg(seen)));
    }

    void atMostTwoReadingsThroughThePrompt()
    {
        // The prompt shows one reading, and the force release it confirms acts on that reading.
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("write-path-prompt");
        raw.command({ "HSET", name, kHolder, "1" });
        raw.command({ "PEXPIRE", name, "600000" });
        ServerCommandLog log(m_server.port());
        QVERIFY(log.started());
        QProcess p;
        startCliAtTerminal(p,
            { QStringLiteral("force-release"), QString::fromUtf8(name), QStringLiteral("--url"), m_server.url() },
            cliEnvironment(m_dir));
        QByteArray seen;
        QTRY_VERIFY2_WITH_TIMEOUT((seen += p.readAllStandardOutput()).contains("[y/N]"), seen.constData(), 30000);
        p.write("y\n");
        const CliRun r = finishCliAtTerminal(p, 30000, seen);
        CLI_EXIT(r, CliExit::Done);
        QCOMPARE(raw.type(name), "none");
        const Reads reads = countReads(log.readUntil("end"), name);
        const QString lines = reads.lines.join(QLatin1Char('\n'));
        QVERIFY2(reads.wrote, qPrintable(lines));
        QVERIFY2(reads.readings >= 1 && reads.readings <= 2,
            qPrintable(QStringLiteral("%1 readings:\n%2").arg(reads.readings).arg(lines)));
        QVERIFY2(reads.probes == 0, qPrintable(QStringLiteral("%1 kind probes:\n%2").arg(reads.probes).arg(lines)));
    }
};

QTEST_GUILESS_MAIN(TestWritePath)
#include "tst_writepath.moc"
