// lockscope-cli as a person reads and types it: a binary lock name is addressed exactly as list and show print it
// (or as hex), an --expect-owner that names nobody holding the lock is refused before anything, counted texts read
// "1 lock" and "2 locks", and text tables line up in Chinese as in English. Against a real redis-server.
#include "clirun.h"
#include "kinds/locklayouts.h"
#include "rawredis.h"
#include "redisserver.h"
#include "testutil.h"
#include "texttable.h"
#include "translations.h"

#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
const QByteArray kOwner = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:1";
const QByteArray kOther = "0f0e0d0c-83b1-433a-9335-5e8b9916d3ac:7";
} // namespace

class TestCliText : public QObject
{
    Q_OBJECT
    RedisServer m_server;
    QTemporaryDir m_dir;

    CliRun cli(const QStringList &args)
    {
        return runCli(args + QStringList { QStringLiteral("--url"), m_server.url() }, m_dir);
    }
    // In Chinese: the CLI follows the system locale, as a person's terminal sets it.
    CliRun chinese(const QStringList &args)
    {
        QProcess p;
        QProcessEnvironment e = cliEnvironment(m_dir);
        e.insert(QStringLiteral("LANG"), QStringLiteral("zh_CN.UTF-8"));
        e.insert(QStringLiteral("LANGUAGE"), QStringLiteral("zh_CN"));
        e.remove(QStringLiteral("LC_ALL"));
        e.remove(QStringLiteral("LC_MESSAGES"));
        startCli(p, args + QStringList { QStringLiteral("--url"), m_server.url() }, e);
        p.closeWriteChannel();
        return finishCli(p);
    }

    // A Redisson lock held by owner with a lease far longer than any test (the test ends it explicitly).
    void hold(RawRedis &raw, const QByteArray &name, const QByteArray &owner = kOwner)
    {
        QVERIFY(!raw.command({ "HSET", name, owner, "1" }).isError());
        QVERIFY(!raw.command({ "PEXPIRE", name, "600000" }).isError());
    }

    // The line list prints for name, found by its escaped form.
    static QString listedName(const QByteArray &listOut, const QString &prefix)
    {
        for (const QString &line : QString::fromUtf8(listOut).split(QLatin1Char('\n')))
            if (line.startsWith(prefix))
                return line.section(QStringLiteral("  "), 0, 0);
        return {};
    }

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
        QVERIFY(m_dir.isValid());
    }

    void init()
    {
        RawRedis raw(m_server.port());
        QVERIFY(raw.isConnected());
        raw.command({ "FLUSHALL" });
    }

    // A name with a NUL, a byte that is no UTF-8, an escape character and a backslash: list prints it escaped, and
    // that printed text, typed back, is the lock. So is its hex. A near miss is no lock and changes nothing.
    void binaryNameAddressedAsPrinted()
    {
        RawRedis raw(m_server.port());
        const QByteArray name = QByteArray("bin:\x00\xff\x1b[1m\\x41", 14);
        hold(raw, name);
        hold(raw, "bin:A"); // what "\x41" would be if the backslash were not doubled

        const CliRun listed = cli({ QStringLiteral("list"), QStringLiteral("--pattern"), QStringLiteral("bin:*") });
        CLI_EXIT(listed, CliExit::Done);
        const QString printed = listedName(listed.out, QStringLiteral("bin:\\x00"));
        QCOMPARE(printed, QStringLiteral("bin:\\x00\\xff\\x1b[1m\\\\x41"));

        // show finds it by its printed name, and says the holder.
        CliRun r = cli({ QStringLiteral("show"), printed });
        CLI_EXIT(r, CliExit::Done);
        QVERIFY2(r.out.contains(kOwner), r.describe().constData());
        // By hex, too.
        r = cli({ QStringLiteral("show"), QStringLiteral("--hex"), QString::fromLatin1(name.toHex()) });
        CLI_EXIT(r, CliExit::Done);
        QVERIFY2(r.out.contains(kOwner), r.describe().constData());
        // Hex that is no hex is a usage error, and reads nothing.
        r = cli({ QStringLiteral("show"), QStringLiteral("--hex"), QStringLiteral("62696e3") });
        CLI_EXIT(r, CliExit::Usage);
        QVERIFY2(r.err.contains("--hex"), r.describe().constData());

        // A mistyped escape names a key that does not exist: refused, and both locks stay.
        r = cli({ QStringLiteral("force-release"), QStringLiteral("bin:\\x00\\xfe\\x1b[1m\\\\x41"),
            QStringLiteral("--yes") });
        QVERIFY2(r.normal() && r.exitCode != 0, r.describe().constData());
        QCOMPARE(raw.hgetall(name).value(kOwner), QByteArray("1"));

        // The printed name releases exactly that lock; the look-alike "bin:A" is untouched.
        r = cli({ QStringLiteral("release"), printed, QStringLiteral("--owner"), QString::fromLatin1(kOwner) });
        CLI_EXIT(r, CliExit::Done);
        QCOMPARE(raw.pttl(name), qint64(-2));
        QCOMPARE(raw.hgetall("bin:A").value(kOwner), QByteArray("1"));

        // force-release by hex.
        r = cli({ QStringLiteral("force-release"), QStringLiteral("--hex"),
            QString::fromLatin1(QByteArray("bin:A").toHex()), QStringLiteral("--yes") });
        CLI_EXIT(r, CliExit::Done);
        QCOMPARE(raw.pttl("bin:A"), qint64(-2));
    }

    // An --expect-owner that holds nothing here is refused before any prompt or delete, naming who holds it.
    void expectOwnerNamingNobodyRefused()
    {
        RawRedis raw(m_server.port());
        hold(raw, "orders:42");
        const CliRun r = cli({ QStringLiteral("force-release"), QStringLiteral("orders:42"),
            QStringLiteral("--expect-owner"), QString::fromLatin1(kOther), QStringLiteral("--yes") });
        CLI_EXIT(r, CliExit::NotDone);
        QVERIFY2(r.err.contains("not held by " + kOther), r.describe().constData());
        QVERIFY2(r.err.contains("held by " + kOwner), r.describe().constData());
        QCOMPARE(raw.hgetall("orders:42").value(kOwner), QByteArray("1"));
        QVERIFY(raw.pttl("orders:42") > 0);

        // At a terminal, without --yes: the refusal comes instead of the question (script(1) gives the CLI a
        // terminal; the process is not answered and must end on its own).
        QProcess p;
        startCliAtTerminal(p,
            { QStringLiteral("force-release"), QStringLiteral("orders:42"), QStringLiteral("--expect-owner"),
                QString::fromLatin1(kOther), QStringLiteral("--url"), m_server.url() },
            cliEnvironment(m_dir));
        // A CLI that asked would wait for the answer until finishCliAtTerminal gives up (and fails the test).
        const CliRun atTerminal = finishCliAtTerminal(p);
        CLI_EXIT(atTerminal, CliExit::NotDone);
        const QByteArray seen = atTerminal.out;
        QVERIFY2(seen.contains("not held by " + kOther) && !seen.contains("[y/N]"), seen.constData());
        QCOMPARE(raw.hgetall("orders:42").value(kOwner), QByteArray("1"));

        // The right owner still works.
        const CliRun done = cli({ QStringLiteral("force-release"), QStringLiteral("orders:42"),
            QStringLiteral("--expect-owner"), QString::fromLatin1(kOwner), QStringLiteral("--yes") });
        CLI_EXIT(done, CliExit::Done);
        QCOMPARE(raw.pttl("orders:42"), qint64(-2));
    }

    // "1 lock", "2 locks": counted texts take the number's plural form in English, and Chinese has its own.
    void countsReadAsWords()
    {
        RawRedis raw(m_server.port());
        hold(raw, "orders:1");
        CliRun r = cli({ QStringLiteral("list"), QStringLiteral("--pattern"), QStringLiteral("orders:*") });
        CLI_EXIT(r, CliExit::Done);
        QVERIFY2(r.out.startsWith("1 lock\n"), r.describe().constData());
        hold(raw, "orders:2", kOther);
        r = cli({ QStringLiteral("list"), QStringLiteral("--pattern"), QStringLiteral("orders:*") });
        CLI_EXIT(r, CliExit::Done);
        QVERIFY2(r.out.startsWith("2 locks\n"), r.describe().constData());
        r = chinese({ QStringLiteral("list"), QStringLiteral("--pattern"), QStringLiteral("orders:*") });
        CLI_EXIT(r, CliExit::Done);
        QVERIFY2(r.out.startsWith(QStringLiteral("2 把锁\n").toUtf8()), r.describe().constData());
        // The list line's words too, around the names --kind and JSON use.
        QVERIFY2(r.out.contains(QStringLiteral("计数 1").toUtf8()) && r.out.contains(QStringLiteral("等待者").toUtf8()),
            r.describe().constData());

        // stats' header: the same plural rule ("2 locks," not "2 lock(s),").
        r = cli({ QStringLiteral("stats"), QStringLiteral("--seconds"), QStringLiteral("1"),
            QStringLiteral("--pattern"), QStringLiteral("orders:*") });
        CLI_EXIT(r, CliExit::Done);
        QVERIFY2(r.out.contains(" 2 locks, "), r.describe().constData());
        QVERIFY2(!r.out.contains("(s)") && !r.err.contains("(s)"), r.describe().constData());
    }

    // Chinese headers are two columns wide per character: the table pads by display width, so each column starts at
    // the same place on every line.
    void tablesAlignByDisplayWidth()
    {
        QCOMPARE(Cli::displayWidth(QStringLiteral("锁")), 2);
        QCOMPARE(Cli::displayWidth(QStringLiteral("lock")), 4);
        QCOMPARE(Cli::displayWidth(QStringLiteral("e\u0301")), 1); // a combining accent takes no column
        QCOMPARE(Cli::displayWidth(QStringLiteral("ＡＢ")), 4); // fullwidth forms

        // stats in Chinese while two locks, one with a Chinese name, are taken: its table has a row each. Keyspace
        // events, so that stats hears of each at once.
        RawRedis raw(m_server.port());
        QVERIFY(!raw.command({ "CONFIG", "SET", "notify-keyspace-events", "KEA" }).isError());
        QProcess stats;
        QProcessEnvironment e = cliEnvironment(m_dir);
        e.insert(QStringLiteral("LANG"), QStringLiteral("zh_CN.UTF-8"));
        e.insert(QStringLiteral("LANGUAGE"), QStringLiteral("zh_CN"));
        startCli(stats,
            { QStringLiteral("stats"), QStringLiteral("--seconds"), QStringLiteral("4"), QStringLiteral("--url"),
                m_server.url() },
            e);
        stats.closeWriteChannel();
        // Its counts start once it says it is watching (on standard error).
        QByteArray said;
        const QDeadlineTimer ready(30000);
        while (!said.contains('\n') && !ready.hasExpired() && stats.state() == QProcess::Running) {
            stats.waitForReadyRead(200);
            said += stats.readAllStandardError();
        }
        // Each taken once and kept: stats reads it after the event and finds it held, however late that read comes
        // (its report waits for the reads the events asked for).
        for (const QByteArray &name : { QByteArray("orders:1"), QStringLiteral("订单:2").toUtf8() })
            hold(raw, name);
        const CliRun r = finishCli(stats, 30000, CliWait::Blocking, said);
        CLI_EXIT(r, CliExit::Done);
        const QStringList lines = QString::fromUtf8(r.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        // The table: the lines from the one naming the lock column; its rows are the two locks.
        int head = -1;
        for (int i = 0; i < lines.size() && head < 0; ++i)
            if (lines.at(i).startsWith(QStringLiteral("orders:1")) || lines.at(i).startsWith(QStringLiteral("订单:2")))
                head = i - 1;
        QVERIFY2(head >= 0 && head + 2 < lines.size(), r.describe().constData());
        // Where each column of the header starts, in display columns: after a run of two or more blanks.
        const auto starts = [](const QString &line) {
            QList<int> out { 0 };
            static const QRegularExpression gap(QStringLiteral("  +"));
            for (auto it = gap.globalMatch(line); it.hasNext();) {
                const QRegularExpressionMatch m = it.next();
                out << Cli::displayWidth(line.left(m.capturedEnd()));
            }
            return out;
        };
        const QList<int> header = starts(lines.at(head));
        QVERIFY2(header.size() >= 3, qPrintable(lines.at(head)));
        for (int row = head + 1; row <= head + 2; ++row) {
            const QList<int> cells = starts(lines.at(row));
            // Every column a row fills starts where its header does (a row may end early: its last cells empty).
            for (int c = 1; c < qMin(cells.size(), header.size()); ++c)
                QVERIFY2(cells.at(c) == header.at(c),
                    qPrintable(QStringLiteral("column %1 of \"%2\" starts at %3, under a header at %4:\n%5")
                                   .arg(c)
                                   .arg(lines.at(row))
                                   .arg(cells.at(c))
                                   .arg(header.at(c))
                                   .arg(QString::fromUtf8(r.out))));
        }
    }

    // The console and the CLI share these words: in Chinese, a read-write lock's mode and a kind are Chinese too (the
    // Mode column, the Contention views' kind column), not the names --kind and JSON use. Last: it installs Chinese.
    // `COMMAND --help` and `help COMMAND`: that command's usage, its own options described (not every command's),
    // examples; exit 0, nothing read from the server. An unknown command's help is a usage error.
    void commandHelpIsTheCommandsOwn()
    {
        const CliRun force = cli({ QStringLiteral("force-release"), QStringLiteral("--help") });
        QCOMPARE(force.exitCode, 0);
        const QString text = QString::fromUtf8(force.out);
        QVERIFY2(text.startsWith(QStringLiteral("Usage: lockscope-cli force-release NAME")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("--expect-owner <UUID:TID>")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("--yes")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Examples:\n  lockscope-cli force-release orders:42")), qPrintable(text));
        for (const QString &other :
            { QStringLiteral("--permits"), QStringLiteral("--pattern"), QStringLiteral("--hold") })
            QVERIFY2(!text.contains(other), qPrintable(other));
        const CliRun verb = cli({ QStringLiteral("help"), QStringLiteral("lock") });
        QCOMPARE(verb.exitCode, 0);
        QVERIFY2(QString::fromUtf8(verb.out).contains(QStringLiteral("--watchdog-timeout <MS>")), verb.out.constData());
        QCOMPARE(cli({ QStringLiteral("help"), QStringLiteral("nope") }).exitCode, 2);
        // Every command has help of its own, each with at least one example.
        for (const QString &command :
            { QStringLiteral("list"), QStringLiteral("show"), QStringLiteral("watch"), QStringLiteral("stats"),
                QStringLiteral("top"), QStringLiteral("serve-metrics"), QStringLiteral("release"),
                QStringLiteral("repair-queue"), QStringLiteral("add-permits"), QStringLiteral("release-permit"),
                QStringLiteral("open-latch"), QStringLiteral("demo"), QStringLiteral("guide") }) {
            const CliRun help = cli({ command, QStringLiteral("--help") });
            QCOMPARE(help.exitCode, 0);
            QVERIFY2(QString::fromUtf8(help.out).contains(QStringLiteral("  lockscope-cli ") + command),
                help.out.constData());
        }
    }

    // list and show print TTLs as durations, as the console does; --json keeps milliseconds.
    void ttlsReadAsDurations()
    {
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("ttl-text");
        QVERIFY(!raw.command({ "HSET", name, kOwner, "1" }).isError());
        QVERIFY(!raw.command({ "PEXPIRE", name, "900000" }).isError());
        const CliRun list = cli({ QStringLiteral("list"), QStringLiteral("--pattern"), QString::fromUtf8(name) });
        QCOMPARE(list.exitCode, 0);
        QString line;
        for (const QString &each : QString::fromUtf8(list.out).split(QLatin1Char('\n')))
            if (each.startsWith(QString::fromUtf8(name) + QStringLiteral("  ")))
                line = each;
        QVERIFY2(QRegularExpression(QStringLiteral("ttl 1[45] min \\d+ s ")).match(line).hasMatch(), qPrintable(line));
        QVERIFY2(!line.contains(QStringLiteral(" ms ")), qPrintable(line));
        const CliRun show = cli({ QStringLiteral("show"), QString::fromUtf8(name) });
        QVERIFY2(QString::fromUtf8(show.out).contains(QStringLiteral(" min ")), show.out.constData());
        const CliRun json = cli({ QStringLiteral("show"), QString::fromUtf8(name), QStringLiteral("--json") });
        QVERIFY2(json.out.contains("\"ttl_ms\":"), json.out.constData());
        raw.command({ "DEL", name });
    }

    // list, show and top in Chinese: kinds, modes and confidences in Chinese words; in English the ids scripts read.
    // A refusal reads as a sentence, without its code ("kind-mismatch: "), which --json keeps (issue 47).
    void cliSpeaksTheLanguageOfItsUser()
    {
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("words");
        QVERIFY(!raw.command({ "HSET", name, "mode", "read", kOwner, "1" }).isError());
        QVERIFY(!raw.command({ "PEXPIRE", name, "600000" }).isError());
        const QStringList list { QStringLiteral("list"), QStringLiteral("--pattern"), QString::fromUtf8(name) };
        const QString english = QString::fromUtf8(cli(list).out);
        QVERIFY2(english.contains(QStringLiteral("  readwrite/read  ")) && english.contains(QStringLiteral("  low")),
            qPrintable(english));
        const CliRun zh = chinese(list);
        QCOMPARE(zh.exitCode, 0);
        const QString chineseList = QString::fromUtf8(zh.out);
        QVERIFY2(chineseList.contains(QStringLiteral("  读写/读  ")), qPrintable(chineseList));
        QVERIFY2(!chineseList.contains(QStringLiteral("readwrite")) && !chineseList.contains(QStringLiteral(" low")),
            qPrintable(chineseList));
        const QString shown = QString::fromUtf8(chinese({ QStringLiteral("show"), QString::fromUtf8(name) }).out);
        QVERIFY2(shown.contains(QStringLiteral("读写")) && !shown.contains(QStringLiteral("readwrite"))
                && !shown.contains(QStringLiteral(" low")),
            qPrintable(shown));

        const QByteArray app = uniqueKey("words-app");
        QVERIFY(!raw.command({ "HSET", app, "name", "ann" }).isError());
        const QStringList force { QStringLiteral("force-release"), QString::fromUtf8(app), QStringLiteral("--yes") };
        const CliRun text = cli(force);
        QCOMPARE(text.exitCode, 1);
        QVERIFY2(text.err.contains("is not a lock") && !text.err.contains("kind-mismatch"), text.err.constData());
        const CliRun json = cli(force + QStringList { QStringLiteral("--json") });
        QCOMPARE(json.exitCode, 1);
        QVERIFY2(json.err.contains("kind-mismatch: "), json.err.constData());
        const CliRun zhForce = chinese(force);
        QCOMPARE(zhForce.exitCode, 1);
        QVERIFY2(!zhForce.err.contains("kind-mismatch"), zhForce.err.constData());
        QCOMPARE(raw.hgetall(app).value("name"), QByteArray("ann"));
        raw.command({ "DEL", name, app });

        // The usage line's placeholders in the reader's language; the command words stay as they are typed.
        const QString usage
            = QString::fromUtf8(chinese({ QStringLiteral("--help") }).out).section(QLatin1Char('\n'), 0, 0);
        QVERIFY2(usage.contains(QStringLiteral("命令 [名称]")) && !usage.contains(QStringLiteral("command")),
            qPrintable(usage));
        QVERIFY2(QString::fromUtf8(chinese({ QStringLiteral("--help") }).out).contains(QStringLiteral("force-release")),
            "the commands stay as typed");
    }

    // A release and a force release say how many heard them: nobody, or the waiters listening on the channel (counted
    // just before, both pub/sub namespaces), never "waiters woken" when nobody was there (issue 47).
    void wakeUpsSayWhoHeardThem()
    {
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("heard");
        const QByteArray channel = "redisson_lock__channel:{" + name + "}";
        hold(raw, name);
        const QStringList release { QStringLiteral("release"), QString::fromUtf8(name), QStringLiteral("--owner"),
            QString::fromUtf8(kOwner) };
        const CliRun alone = cli(release);
        QCOMPARE(alone.exitCode, 0);
        QVERIFY2(alone.out.contains("nobody was waiting on " + channel), alone.out.constData());

        hold(raw, name);
        {
            RawRedis first(m_server.port()), second(m_server.port());
            for (RawRedis *ears : { &first, &second }) {
                ears->append({ "SUBSCRIBE", channel });
                QVERIFY(!ears->readReply(5000).isError());
            }
            const CliRun heard = cli(release);
            QCOMPARE(heard.exitCode, 0);
            QVERIFY2(
                heard.out.contains("the 2 waiters listening on " + channel + " were woken"), heard.out.constData());
            QCOMPARE(first.readReply(5000).at(2).bytes(), QByteArray("0"));

            hold(raw, name);
            const CliRun force
                = cli({ QStringLiteral("force-release"), QString::fromUtf8(name), QStringLiteral("--yes") });
            QCOMPARE(force.exitCode, 0);
            QVERIFY2(force.out.contains("the 2 waiters on " + channel + " were woken"), force.out.constData());
        }
        // Both gone (their connections closed): nobody listens any more.
        QTRY_COMPARE(raw.command({ "PUBSUB", "NUMSUB", channel }).at(1).toInteger(), 0);
        hold(raw, name);
        const CliRun nobody
            = cli({ QStringLiteral("force-release"), QString::fromUtf8(name), QStringLiteral("--yes") });
        QCOMPARE(nobody.exitCode, 0);
        QVERIFY2(nobody.out.contains("nobody was waiting on " + channel), nobody.out.constData());
    }

    void kindsAndModesInChinese()
    {
        QVERIFY(I18n::install(QStringLiteral("zh_CN")));
        QCOMPARE(LockLayouts::modeText("read"), QStringLiteral("读"));
        QCOMPARE(LockLayouts::modeText("write"), QStringLiteral("写"));
        QCOMPARE(LockLayouts::kindText(QByteArray("reentrant")), QStringLiteral("可重入"));
        QCOMPARE(LockLayouts::kindText(QByteArray("readwrite")), QStringLiteral("读写"));
        QCOMPARE(LockLayouts::kindText(QByteArray("no-such-kind")), QStringLiteral("no-such-kind"));
    }
};

QTEST_GUILESS_MAIN(TestCliText)
#include "tst_clitext.moc"
