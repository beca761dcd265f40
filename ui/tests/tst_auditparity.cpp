// The same action through lockscope-cli and through the console leaves the same audit record: every field but the
// time, the process, the client that acted and the writer's own "result" words (docs/cli.md#files) is equal. Both
// act on the same lock in the same state, one after the other; the records come from the operations (core/ops/),
// and a front-end that adds, drops or spells a field its own way fails here.
#include "clirun.h"
#include "consolefixture.h"
#include "forcereleasedialog.h"
#include "ops/auditrecord.h"
#include "reclaimdialog.h"
#include "reclaimflow.h"
#include "redisserver.h"
#include "releaseclientdialog.h"
#include "testutil.h"

#include <QFile>
#include <QInputDialog>
#include <QJsonArray>
#include <QTemporaryDir>

using namespace LockScope;
using namespace LockScope::Test;

class TestAuditParity : public QObject
{
    Q_OBJECT
    RedisServer m_server;
    QTemporaryDir m_dir;

    QString auditPath() const { return m_dir.filePath(QStringLiteral("audit.log")); }

    // The last record of action on name, written after the first `from` lines.
    std::optional<QJsonObject> record(const QString &action, const QByteArray &name, qsizetype from) const
    {
        const QList<QJsonObject> lines = auditLines(auditPath());
        for (qsizetype i = lines.size() - 1; i >= from; --i)
            if (lines.at(i).value(QStringLiteral("action")).toString() == action
                && lines.at(i).value(QStringLiteral("name")).toString() == QString::fromUtf8(name))
                return lines.at(i);
        return std::nullopt;
    }
    qsizetype lineCount() const { return auditLines(auditPath()).size(); }

    // Every field equal but those that say when, where and as whom it ran; "result" in each writer's words.
    static void compareRecords(const QJsonObject &cli, const QJsonObject &console)
    {
        static const QStringList own { QStringLiteral("ts"), QStringLiteral("pid"), QStringLiteral("client_id"),
            QStringLiteral("result") };
        QStringList cliKeys = cli.keys(), consoleKeys = console.keys();
        QCOMPARE(cliKeys, consoleKeys);
        for (const QString &key : cliKeys) {
            if (own.contains(key))
                continue;
            QVERIFY2(cli.value(key) == console.value(key),
                qPrintable(
                    QStringLiteral("%1: lockscope-cli %2, console %3")
                        .arg(key,
                            QString::fromUtf8(
                                QJsonDocument(QJsonObject { { key, cli.value(key) } }).toJson(QJsonDocument::Compact)),
                            QString::fromUtf8(QJsonDocument(QJsonObject { { key, console.value(key) } })
                                                  .toJson(QJsonDocument::Compact)))));
        }
        // The one vocabulary, and each writer's older word for it.
        const QString outcome = cli.value(QStringLiteral("outcome")).toString();
        for (int o = 0; o <= int(AuditRecord::Outcome::Failed); ++o) {
            const auto known = AuditRecord::Outcome(o);
            if (AuditRecord::outcomeName(known) != outcome)
                continue;
            QCOMPARE(cli.value(QStringLiteral("result")).toString(),
                AuditRecord::resultWord(AuditRecord::Writer::Cli, known));
            QCOMPARE(console.value(QStringLiteral("result")).toString(),
                AuditRecord::resultWord(AuditRecord::Writer::Console, known));
            return;
        }
        QFAIL(qPrintable(QStringLiteral("unknown outcome %1").arg(outcome)));
    }

    CliRun cli(const QStringList &args)
    {
        return runCli(args + QStringList { QStringLiteral("--url"), m_server.url() }, m_dir);
    }

    // lockscope-cli release NAME --owner OWNER, and the record it wrote.
    std::optional<QJsonObject> releaseByCli(const QByteArray &name, const QByteArray &owner)
    {
        const qsizetype from = lineCount();
        const CliRun r = cli({ QStringLiteral("release"), QString::fromUtf8(name), QStringLiteral("--owner"),
            QString::fromUtf8(owner) });
        if (!cliExited(r, CliExit::Done, {}, __FILE__, __LINE__))
            return std::nullopt;
        return record(QStringLiteral("release"), name, from);
    }

    // The console's Release on its selected hold once the row shows `levels`, and the record it wrote.
    std::optional<QJsonObject> releaseByConsole(
        Console &c, const QByteArray &name, const QByteArray &owner, qint64 levels)
    {
        std::optional<QJsonObject> written;
        [&] {
            QTRY_VERIFY_WITH_TIMEOUT(
                !c.actions->ownHold(name).isEmpty() && c.levelsShown(name, owner) == levels, 10000);
            c.select(name);
            QTRY_VERIFY(c.actions->releaseAction()->isEnabled());
            const qsizetype from = lineCount();
            c.actions->releaseAction()->trigger();
            QTRY_VERIFY_WITH_TIMEOUT((written = record(QStringLiteral("release"), name, from)).has_value(), 10000);
        }();
        return written;
    }

    static AcquireRequest hold(const QByteArray &name)
    {
        AcquireRequest r;
        r.name = name;
        r.token = "1";
        r.leaseMs = 600000; // ended by each test itself
        return r;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
        qputenv("LOCKSCOPE_AUDIT_LOG", auditPath().toUtf8()); // the console's; the CLI's is the same (clirun.h)
    }

    // The last level of the console's own hold, given back by lockscope-cli release --owner and by the console's
    // Release: the owner, the holders before with their counts, the outcome.
    void releaseTheLastLevel()
    {
        Console c(ConnectionOptions::fromUrl(m_server.url()));
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("parity-release");
        const QByteArray owner = c.client.ownerField("1");

        c.actions->acquire(hold(name));
        QTRY_COMPARE_WITH_TIMEOUT(raw.hgetall(name).value(owner), QByteArray("1"), 10000);
        const std::optional<QJsonObject> byCli = releaseByCli(name, owner);
        QVERIFY(byCli);
        QCOMPARE(raw.type(name), QByteArray("none"));

        c.actions->acquire(hold(name));
        QTRY_COMPARE_WITH_TIMEOUT(raw.hgetall(name).value(owner), QByteArray("1"), 10000);
        const std::optional<QJsonObject> byConsole = releaseByConsole(c, name, owner, 1);
        QVERIFY(byConsole);
        QCOMPARE(raw.type(name), QByteArray("none"));
        compareRecords(*byCli, *byConsole);
        QCOMPARE(byCli->value(QStringLiteral("outcome")).toString(), QStringLiteral("released"));
        QCOMPARE(byConsole->value(QStringLiteral("owner")).toString(), QString::fromUtf8(owner));
    }

    // One level of three: "still-held" for both, the CLI's older word "decremented".
    void releaseOneLevelOfThree()
    {
        Console c(ConnectionOptions::fromUrl(m_server.url()));
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("parity-level");
        const QByteArray owner = c.client.ownerField("1");
        for (int i = 0; i < 3; ++i)
            c.actions->acquire(hold(name));
        QTRY_COMPARE_WITH_TIMEOUT(raw.hgetall(name).value(owner), QByteArray("3"), 10000);

        const std::optional<QJsonObject> byCli = releaseByCli(name, owner);
        QVERIFY(byCli);
        QCOMPARE(raw.hgetall(name).value(owner), QByteArray("2"));

        // Back to three levels, the state the CLI found, before the console's Release acts.
        c.actions->acquire(hold(name));
        QTRY_COMPARE_WITH_TIMEOUT(raw.hgetall(name).value(owner), QByteArray("3"), 10000);
        const std::optional<QJsonObject> byConsole = releaseByConsole(c, name, owner, 3);
        QVERIFY(byConsole);
        QCOMPARE(raw.hgetall(name).value(owner), QByteArray("2"));
        compareRecords(*byCli, *byConsole);
        QCOMPARE(byCli->value(QStringLiteral("outcome")).toString(), QStringLiteral("still-held"));
        raw.command({ "DEL", name });
    }

    // Someone else's lock deleted with its waiters woken: lockscope-cli force-release --yes, and the console's dialog
    // confirmed with a click. The guard is what each showed, the holders before carry their counts.
    void forceReleaseSomeoneElses()
    {
        Console c(ConnectionOptions::fromUrl(m_server.url()));
        RawRedis raw(m_server.port());
        const QByteArray name = uniqueKey("parity-force");
        holdAsSomeoneElse(raw, name);
        qsizetype from = lineCount();
        const CliRun r = cli({ QStringLiteral("force-release"), QString::fromUtf8(name), QStringLiteral("--yes") });
        CLI_EXIT(r, CliExit::Done);
        const std::optional<QJsonObject> byCli = record(QStringLiteral("force-release"), name, from);
        QVERIFY(byCli);
        QCOMPARE(raw.type(name), QByteArray("none"));

        holdAsSomeoneElse(raw, name);
        QTRY_VERIFY_WITH_TIMEOUT(c.monitor.record(name) && c.monitor.record(name)->present, 10000);
        c.select(name);
        from = lineCount();
        c.actions->forceReleaseAction()->trigger();
        auto *dialog = waitForDialog<ForceReleaseDialog>(&c.window);
        QVERIFY(dialog);
        QTest::mouseClick(dialog->confirmButton(), Qt::LeftButton);
        std::optional<QJsonObject> byConsole;
        QTRY_VERIFY_WITH_TIMEOUT((byConsole = record(QStringLiteral("force-release"), name, from)).has_value(), 10000);
        QCOMPARE(raw.type(name), QByteArray("none"));
        compareRecords(*byCli, *byConsole);
        QCOMPARE(byCli->value(QStringLiteral("outcome")).toString(), QStringLiteral("deleted"));
    }

    // Everything a client held, by lockscope-cli release-client --yes and by the Clients view's dialog confirmed with
    // a click: the client asked for, each item (lock, what, owner, count, outcome), the reason.
    void releaseEverythingOfAClient()
    {
        Console c(ConnectionOptions::fromUrl(m_server.url()));
        RawRedis raw(m_server.port());
        const QByteArray p = uniqueKey("parity-client");
        const QByteArray client = "0b5e4a0e-2f55-4c1a-9d7e-3a1f8c2b6d90";
        const auto holdBoth = [&] {
            for (const char *lock : { ":a", ":b" }) {
                raw.command({ "HSET", p + lock, client + ":7", "2" });
                raw.command({ "PEXPIRE", p + lock, "600000" });
            }
        };
        const auto recordOf = [this](qsizetype from) -> std::optional<QJsonObject> {
            const QList<QJsonObject> lines = auditLines(auditPath());
            for (qsizetype i = lines.size() - 1; i >= from; --i)
                if (lines.at(i).value(QStringLiteral("action")).toString() == QLatin1String("release-client"))
                    return lines.at(i);
            return std::nullopt;
        };
        holdBoth();
        qsizetype from = lineCount();
        const CliRun r = cli({ QStringLiteral("release-client"), QString::fromUtf8(client), QStringLiteral("--yes"),
            QStringLiteral("--reason"), QStringLiteral("pod killed") });
        CLI_EXIT(r, CliExit::Done);
        const std::optional<QJsonObject> byCli = recordOf(from);
        QVERIFY(byCli);
        QCOMPARE(raw.command({ "EXISTS", p + ":a", p + ":b" }).toInteger(), 0);

        holdBoth();
        QTRY_VERIFY_WITH_TIMEOUT(c.row(p + ":a") >= 0 && c.row(p + ":b") >= 0, 10000);
        from = lineCount();
        c.actions->setCurrentClient(client);
        c.actions->releaseClientAction()->trigger();
        auto *dialog = waitForDialog<ReleaseClientDialog>(&c.window);
        QVERIFY(dialog);
        dialog->reasonField()->setFocus(Qt::OtherFocusReason);
        QTest::keyClicks(dialog->reasonField(), QStringLiteral("pod killed"));
        QTest::mouseClick(dialog->confirmButton(), Qt::LeftButton);
        std::optional<QJsonObject> byConsole;
        QTRY_VERIFY_WITH_TIMEOUT((byConsole = recordOf(from)).has_value(), 10000);
        QCOMPARE(raw.command({ "EXISTS", p + ":a", p + ":b" }).toInteger(), 0);
        compareRecords(*byCli, *byConsole);
        QCOMPARE(byCli->value(QStringLiteral("items")).toArray().size(), 2);
    }

    // A dead home-grown hold reaped by lockscope-cli reap (its policy unattended, --yes) and by the console's Reclaim
    // dialog confirmed with a click: the lock, its owner, count, kind and library, the rule, the policy and its
    // hash, the report's hash, the verification and the reason. The evidence is each run's own judgement, in words
    // with durations of that moment: both have it, and it is not compared.
    void reapADeadHold()
    {
        const QByteArray p = uniqueKey("parity-reap");
        Console c(ConnectionOptions::fromUrl(m_server.url()), homeGrownOptions(p));
        RawRedis raw(m_server.port());
        const QString policy = m_dir.filePath(QStringLiteral("parity-reap.yaml"));
        QFile file(policy);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(homeGrownPolicy(p, "parity", "unattended: true\n"));
        file.close();

        const QByteArray dead = homeGrown(raw, p, "import", "run1", true);
        // The same hold again for the console, byte for byte (its token carries the time it was taken).
        const QByteArray token = raw.get(dead), heartbeat = raw.get(p + ":hb:run1");
        qsizetype from = lineCount();
        const CliRun r = cli({ QStringLiteral("reap"), QStringLiteral("--policy"), policy, QStringLiteral("--yes"),
            QStringLiteral("--reason"), QStringLiteral("nightly"), QStringLiteral("--owner-template"),
            QString::fromUtf8(homeGrownTemplate(p)) });
        CLI_EXIT(r, CliExit::Done);
        std::optional<QJsonObject> byCli = record(QStringLiteral("reap"), dead, from);
        QVERIFY(byCli);
        QCOMPARE(raw.type(dead), QByteArray("none"));

        raw.command({ "SET", dead, token });
        raw.command({ "SET", p + ":hb:run1", heartbeat });
        QTRY_VERIFY_WITH_TIMEOUT(c.monitor.record(dead) && c.monitor.record(dead)->present, 10000);
        from = lineCount();
        c.actions->reclaimAction()->trigger();
        auto *dialog = waitForDialog<ReclaimDialog>(&c.window);
        QVERIFY(dialog);
        dialog->policyField()->setText(policy);
        QTest::mouseClick(dialog->watchButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(dialog->releaseButton()->isEnabled(), 30000);
        dialog->reasonField()->setFocus(Qt::OtherFocusReason);
        QTest::keyClicks(dialog->reasonField(), QStringLiteral("nightly"));
        QTest::mouseClick(dialog->releaseButton(), Qt::LeftButton);
        std::optional<QJsonObject> byConsole;
        QTRY_VERIFY_WITH_TIMEOUT((byConsole = record(QStringLiteral("reap"), dead, from)).has_value(), 30000);
        QCOMPARE(raw.type(dead), QByteArray("none"));
        for (std::optional<QJsonObject> *o : { &byCli, &byConsole }) {
            QVERIFY(!(*o)->value(QStringLiteral("evidence")).toArray().isEmpty());
            (*o)->remove(QStringLiteral("evidence"));
        }
        compareRecords(*byCli, *byConsole);
        QCOMPARE(byCli->value(QStringLiteral("verified")).toString(), QStringLiteral("gone"));
        raw.command({ "DEL", p + ":hb:run1" });
    }

    // Permits given to a Redisson semaphore: the permits asked for, the count now.
    void addPermits()
    {
        LockMonitor::Options declared = Console::fastMonitor();
        declared.stringPatterns.declare("redisson", "parity-counters:*");
        Console c(ConnectionOptions::fromUrl(m_server.url()), declared);
        RawRedis raw(m_server.port());
        const QByteArray name = "parity-counters:" + uniqueKey("sem");
        raw.command({ "SET", name, "1" });
        qsizetype from = lineCount();
        const CliRun r = cli({ QStringLiteral("add-permits"), QString::fromUtf8(name), QStringLiteral("--permits"),
            QStringLiteral("2"), QStringLiteral("--layout-pattern"), QStringLiteral("redisson=parity-counters:*") });
        CLI_EXIT(r, CliExit::Done);
        const std::optional<QJsonObject> byCli = record(QStringLiteral("add-permits"), name, from);
        QVERIFY(byCli);
        QCOMPARE(raw.get(name), QByteArray("3"));

        raw.command({ "SET", name, "1" });
        QTRY_VERIFY_WITH_TIMEOUT(c.row(name) >= 0, 10000);
        c.select(name);
        QAction *add = c.actions->counterActions().at(0);
        QTRY_VERIFY(add->isEnabled());
        from = lineCount();
        add->trigger();
        QInputDialog *dialog = waitForDialog<QInputDialog>(&c.window);
        QVERIFY(dialog);
        dialog->setIntValue(2);
        dialog->accept();
        std::optional<QJsonObject> byConsole;
        QTRY_VERIFY_WITH_TIMEOUT((byConsole = record(QStringLiteral("add-permits"), name, from)).has_value(), 10000);
        QCOMPARE(raw.get(name), QByteArray("3"));
        compareRecords(*byCli, *byConsole);
        raw.command({ "DEL", name });
    }
};

QTEST_MAIN(TestAuditParity)
#include "tst_auditparity.moc"
