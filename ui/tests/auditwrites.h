// What tst_auditwrites and tst_auditssh share: every write the console makes, driven as a person does it, and the
// same action through lockscope-cli on the same state, each returning the records it wrote. The console is the one
// the app builds (consolefixture.h: its display target); `redis` runs a command on the server under test (directly,
// or inside the SSH host's namespace) and `cli` runs lockscope-cli against it, both given by the suite.
#pragma once

#include "auditcompare.h"
#include "clirun.h"
#include "consolefixture.h"
#include "forcereleasedialog.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QInputDialog>
#include <QMessageBox>
#include <QSpinBox>

#include <pwd.h>
#include <unistd.h>

namespace LockScope::Test {

struct AuditWrites
{
    Console &c;
    QString auditPath;
    std::function<QByteArray(const QList<QByteArray> &)> redis; // the reply as text, as redis-cli prints it
    std::function<CliRun(const QStringList &)> cli; // with the server's --url (and route) added
    QStringList declared; // lockscope-cli's --layout-pattern for the counters the console's profile declares

    qsizetype lines() const { return auditLines(auditPath).size(); }

    // Runs checks that may fail the test (QTRY_ returns from a function returning nothing): whether they passed.
    static bool ready(const std::function<void()> &checks)
    {
        checks();
        return !QTest::currentTestFailed();
    }

    // The records written since from; fails the test unless there are `count` of them in time.
    QList<QJsonObject> written(qsizetype from, int count) const
    {
        QList<QJsonObject> out;
        [&] {
            QTRY_VERIFY_WITH_TIMEOUT(auditLinesFrom(auditPath, from).size() >= count, 20000);
            settle(c); // nothing more comes: a second record would be there now
            QByteArray all;
            for (const QJsonObject &r : auditLinesFrom(auditPath, from))
                all += QJsonDocument(r).toJson(QJsonDocument::Compact) + '\n';
            QVERIFY2(auditLinesFrom(auditPath, from).size() == count, all.constData());
        }();
        return QTest::currentTestFailed() ? out : auditLinesFrom(auditPath, from);
    }

    QList<QJsonObject> byCli(const QStringList &args, int count = 1) const
    {
        const qsizetype from = lines();
        const CliRun r = cli(args);
        if (!cliExited(r, CliExit::Done, {}, __FILE__, __LINE__))
            return {};
        return written(from, count);
    }

    static AcquireRequest hold(const QByteArray &name, qint64 leaseMs = 600000)
    {
        AcquireRequest r;
        r.name = name;
        r.token = "1";
        r.leaseMs = leaseMs; // -1: the watchdog renews it
        return r;
    }

    // The console's own hold on name with levels levels, as its rows show it.
    void holdLevels(const QByteArray &name, int levels, qint64 leaseMs = 600000) const
    {
        const QByteArray owner = c.client.ownerField("1");
        const int had = redis({ "HGET", name, owner }).toInt(); // as Redis has it: the rows may lag behind
        // One level at a time, each in Redis before the next is asked for, as a person's acquires come: two in flight
        // at once may meet as one on a loaded machine.
        for (int i = had; i < levels; ++i) {
            c.actions->acquire(hold(name, leaseMs));
            QTRY_VERIFY_WITH_TIMEOUT(redis({ "HGET", name, owner }).toInt() == i + 1, 60000);
        }
        QTRY_VERIFY_WITH_TIMEOUT(c.levelsShown(name, owner) == levels && !c.actions->ownHold(name).isEmpty(), 60000);
        settle(c); // the acquires' own records are written: they are not the next action's
    }

    void select(const QByteArray &name) const
    {
        QTRY_VERIFY_WITH_TIMEOUT(shownIndex(c, name).isValid(), 20000);
        activate(c);
        clickRow(c, name);
    }

    // Ctrl+R (one level) or Ctrl+Shift+R (all levels) in the table, on the selected own hold.
    QList<QJsonObject> releaseByKey(const QByteArray &name, bool all, int records) const
    {
        if (!ready([&] {
                select(name);
                QTRY_VERIFY_WITH_TIMEOUT(c.actions->releaseAction()->isEnabled(), 20000);
            }))
            return {};
        const qsizetype from = lines();
        QTest::keyClick(c.window.locksPane()->view(), Qt::Key_R,
            all ? Qt::ControlModifier | Qt::ShiftModifier : Qt::ControlModifier);
        return written(from, records);
    }

    // Ctrl+W on the selected own hold: the watchdog off, or on again.
    QList<QJsonObject> watchdogByKey(const QByteArray &name, bool on) const
    {
        if (!ready([&] {
                select(name);
                QTRY_VERIFY_WITH_TIMEOUT(c.actions->watchdogAction()->isEnabled(), 20000);
                QTRY_COMPARE_WITH_TIMEOUT(c.actions->watchdogAction()->isChecked(), !on, 20000);
            }))
            return {};
        const qsizetype from = lines();
        QTest::keyClick(c.window.locksPane()->view(), Qt::Key_W, Qt::ControlModifier);
        return written(from, 1);
    }

    // Ctrl+Shift+Del on the selected lock, and a click on the dialog's own button.
    QList<QJsonObject> forceReleaseByClick(const QByteArray &name) const
    {
        if (!ready([&] {
                // Held again, as the rows show it (not the row of the lock the CLI deleted, still shown as gone).
                QTRY_VERIFY_WITH_TIMEOUT(c.monitor.record(name) && c.monitor.record(name)->present
                        && !c.monitor.record(name)->info.holders.isEmpty() && !c.shownEnded(name),
                    20000);
                select(name);
                QTRY_VERIFY_WITH_TIMEOUT(c.actions->forceReleaseAction()->isEnabled(), 20000);
            }))
            return {};
        QTest::keyClick(c.window.locksPane()->view(), Qt::Key_Delete, Qt::ControlModifier | Qt::ShiftModifier);
        auto *dialog = qobject_cast<ForceReleaseDialog *>(openDialog());
        if (!dialog)
            return {};
        const qsizetype from = lines();
        QTest::mouseClick(dialog->confirmButton(), Qt::LeftButton);
        return written(from, 1);
    }

    // A counter action from the Lock menu (0 add permits, 1 release a permit, 2 open latch), its dialog answered by
    // typing permits (add permits) and a click on its own button.
    QList<QJsonObject> counterByClick(const QByteArray &name, int which, int permits = 0) const
    {
        QAction *action = c.actions->counterActions().at(which);
        if (!ready([&] {
                select(name);
                QTRY_VERIFY_WITH_TIMEOUT(action->isEnabled(), 20000);
            }))
            return {};
        action->trigger();
        QDialog *dialog = openDialog();
        if (!dialog)
            return {};
        QAbstractButton *acting = nullptr;
        if (auto *box = qobject_cast<QMessageBox *>(dialog)) {
            acting = box->button(QMessageBox::Yes);
        } else {
            if (which == 0) {
                auto *spin = dialog->findChild<QSpinBox *>();
                if (!spin)
                    return {};
                spin->setFocus(Qt::OtherFocusReason);
                spin->selectAll();
                QTest::keyClicks(spin, QString::number(permits));
            }
            acting = dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
        }
        const qsizetype from = lines();
        QTest::mouseClick(acting, Qt::LeftButton);
        return written(from, 1);
    }

    // Every write of the console, each compared with lockscope-cli's record of the same action on the same state
    // where the CLI has that action, else with what docs/cli.md#files and the user guide's section 9 say the record
    // holds. url: the "url" every record must carry, as the docs write it (in every language; null: the suite checks
    // it itself, and both programs' records are only held to each other's). listen(channel): a
    // Redisson waiter on channel for as long as the handle lives.
    void everyWrite(const QString &url, const QByteArray &prefix,
        const std::function<std::shared_ptr<void>(const QByteArray &)> &listen) const;
};

// The fields a record has, and no other.
inline void hasExactly(const QJsonObject &record, QStringList keys)
{
    keys.sort();
    QCOMPARE(record.keys(), keys);
}

} // namespace LockScope::Test

namespace LockScope::Test {

inline void AuditWrites::everyWrite(const QString &url, const QByteArray &prefix,
    const std::function<std::shared_ptr<void>(const QByteArray &)> &listen) const
{
    const QByteArray owner = c.client.ownerField("1");
    const QString clientId = QString::fromUtf8(c.client.clientId());
    const QJsonArray ours { QJsonObject { { QStringLiteral("owner"), QString::fromUtf8(owner) } } };
    const QStringList common { QStringLiteral("action"), QStringLiteral("client_id"), QStringLiteral("host"),
        QStringLiteral("name"), QStringLiteral("outcome"), QStringLiteral("pid"), QStringLiteral("result"),
        QStringLiteral("ts"), QStringLiteral("url"), QStringLiteral("user") };
    // What the console alone writes: its fields as the docs list them, each value as it must be.
    const auto consoleOnly = [&](const QJsonObject &r, const QString &action, const QByteArray &name,
                                 const QJsonArray &before, const QString &outcome) {
        hasExactly(r, common + QStringList { QStringLiteral("holders_before") });
        QCOMPARE(r.value(QStringLiteral("action")).toString(), action);
        QCOMPARE(r.value(QStringLiteral("name")).toString(), QString::fromUtf8(name));
        if (!url.isNull())
            QCOMPARE(r.value(QStringLiteral("url")).toString(), url);
        QCOMPARE(r.value(QStringLiteral("client_id")).toString(), clientId);
        QCOMPARE(r.value(QStringLiteral("holders_before")).toArray(), before);
        QCOMPARE(r.value(QStringLiteral("outcome")).toString(), outcome);
        QCOMPARE(r.value(QStringLiteral("result")).toString(), outcome);
        // The operating system's account, whatever $USER says (unset under cron and systemd).
        QCOMPARE(r.value(QStringLiteral("user")).toString(), QString::fromLocal8Bit(getpwuid(geteuid())->pw_name));
        QCOMPARE(r.value(QStringLiteral("pid")).toInteger(), QCoreApplication::applicationPid());
    };
    // Both programs' records of one action: equal field by field, on this server as the docs name it.
    const auto same = [&](const QList<QJsonObject> &cli, const QList<QJsonObject> &console, const QString &action,
                          const QStringList &outcomes) {
        QCOMPARE(cli.size(), outcomes.size());
        QCOMPARE(console.size(), outcomes.size());
        for (int i = 0; i < outcomes.size(); ++i) {
            compareAuditRecords(cli.at(i), console.at(i));
            if (QTest::currentTestFailed())
                return;
            QCOMPARE(console.at(i).value(QStringLiteral("action")).toString(), action);
            QCOMPARE(console.at(i).value(QStringLiteral("outcome")).toString(), outcomes.at(i));
            QCOMPARE(console.at(i).value(QStringLiteral("client_id")).toString(), clientId);
            if (!url.isNull())
                QCOMPARE(cli.at(i).value(QStringLiteral("url")).toString(), url);
        }
    };
#define AUDIT_STEP(what)                                                                                               \
    do {                                                                                                               \
        what;                                                                                                          \
        if (QTest::currentTestFailed())                                                                                \
            return;                                                                                                    \
    } while (false)

    // Acquire: a free name, then one someone else holds (busy, with its holder before).
    const QByteArray mine = prefix + ":mine", theirs = prefix + ":theirs", dog = prefix + ":dog";
    qsizetype from = lines();
    c.actions->acquire(hold(mine)); // what the acquire dialog's OK runs (tst_consoleacquire drives the dialog)
    QList<QJsonObject> console = written(from, 1);
    AUDIT_STEP(consoleOnly(console.value(0), QStringLiteral("acquire"), mine, {}, QStringLiteral("acquired")));
    redis({ "HSET", theirs, kTheirs, "1" });
    redis({ "PEXPIRE", theirs, "600000" });
    QTRY_VERIFY_WITH_TIMEOUT(c.monitor.record(theirs) && c.monitor.record(theirs)->present, 20000);
    from = lines();
    c.actions->acquire(hold(theirs));
    console = written(from, 1);
    AUDIT_STEP(consoleOnly(console.value(0), QStringLiteral("acquire"), theirs,
        { QJsonObject { { QStringLiteral("owner"), QString::fromUtf8(kTheirs) } } }, QStringLiteral("busy")));

    // The watchdog of a hold the watchdog renews, off and on again with Ctrl+W.
    AUDIT_STEP(holdLevels(dog, 1, -1));
    console = watchdogByKey(dog, false);
    AUDIT_STEP(consoleOnly(console.value(0), QStringLiteral("watchdog-off"), dog, ours, QStringLiteral("done")));
    console = watchdogByKey(dog, true);
    AUDIT_STEP(consoleOnly(console.value(0), QStringLiteral("watchdog-on"), dog, ours, QStringLiteral("done")));

    // Release one level of two (Ctrl+R), then all levels of two (Ctrl+Shift+R: a record per level), against
    // lockscope-cli release --owner on the same two levels.
    const QStringList release { QStringLiteral("release"), QString::fromUtf8(mine), QStringLiteral("--owner"),
        QString::fromUtf8(owner) };
    AUDIT_STEP(holdLevels(mine, 2));
    QList<QJsonObject> cli = byCli(release);
    AUDIT_STEP(holdLevels(mine, 2));
    AUDIT_STEP(same(cli, releaseByKey(mine, false, 1), QStringLiteral("release"), { QStringLiteral("still-held") }));
    AUDIT_STEP(holdLevels(mine, 2));
    cli = byCli(release);
    cli += byCli(release); // in this order: the first leaves one level, the second none
    QCOMPARE(redis({ "EXISTS", mine }), QByteArray("0"));
    QTRY_VERIFY_WITH_TIMEOUT(c.actions->ownHold(mine).isEmpty(), 20000); // the console knows its hold is gone
    AUDIT_STEP(holdLevels(mine, 2));
    AUDIT_STEP(same(cli, releaseByKey(mine, true, 2), QStringLiteral("release"),
        { QStringLiteral("still-held"), QStringLiteral("released") }));

    // Force release of someone else's lock: lockscope-cli force-release --yes, the console's dialog clicked.
    cli = byCli({ QStringLiteral("force-release"), QString::fromUtf8(theirs), QStringLiteral("--yes") });
    redis({ "HSET", theirs, kTheirs, "1" });
    redis({ "PEXPIRE", theirs, "600000" });
    AUDIT_STEP(same(cli, forceReleaseByClick(theirs), QStringLiteral("force-release"), { QStringLiteral("deleted") }));

    // A semaphore's permits, an expirable semaphore's permit, a latch (its waiter tells it from a semaphore).
    const QByteArray sem = "audit-counters:" + prefix + ":sem", permit = "audit-counters:" + prefix + ":permit",
                     latch = "audit-counters:" + prefix + ":latch";
    const QByteArray id = "0123456789abcdef0123456789abcdef";
    redis({ "SET", sem, "1" });
    cli = byCli(QStringList { QStringLiteral("add-permits"), QString::fromUtf8(sem), QStringLiteral("--permits"),
                    QStringLiteral("2") }
        + declared);
    redis({ "SET", sem, "1" });
    AUDIT_STEP(same(cli, counterByClick(sem, 0, 2), QStringLiteral("add-permits"), { QStringLiteral("done") }));
    QCOMPARE(redis({ "GET", sem }), QByteArray("3"));

    const auto takePermit = [&] {
        redis({ "SET", permit, "0" });
        redis({ "ZADD", "{" + permit + "}:timeout", "922337203685477", id });
    };
    takePermit();
    cli = byCli(QStringList { QStringLiteral("release-permit"), QString::fromUtf8(permit), QStringLiteral("--permit"),
                    QString::fromLatin1(id) }
        + declared);
    takePermit();
    AUDIT_STEP(same(cli, counterByClick(permit, 1), QStringLiteral("release-permit"), { QStringLiteral("released") }));

    const QByteArray channel = "redisson_countdownlatch__channel__{" + latch + "}";
    const std::shared_ptr<void> waiter = listen(channel);
    QTRY_VERIFY_WITH_TIMEOUT(redis({ "PUBSUB", "NUMSUB", channel }).endsWith("1"), 20000);
    redis({ "SET", latch, "2" });
    cli = byCli(QStringList { QStringLiteral("open-latch"), QString::fromUtf8(latch), QStringLiteral("--yes"),
                    QStringLiteral("--expect-count"), QStringLiteral("2") }
        + declared);
    redis({ "SET", latch, "2" });
    AUDIT_STEP(same(cli, counterByClick(latch, 2), QStringLiteral("open-latch"), { QStringLiteral("deleted") }));
    QCOMPARE(redis({ "EXISTS", latch }), QByteArray("0"));
    redis({ "DEL", dog, sem });
#undef AUDIT_STEP
}

} // namespace LockScope::Test
