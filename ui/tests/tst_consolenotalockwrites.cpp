// Every write of the console on every value that is no lock (the values tests/tst_notalock.cpp gives lockscope-cli,
// and a binary name, a huge name, a huge value, a name that is gone, a lock where a counter was): a force release,
// a release of one and of all levels of the console's own hold, add permits, release a permit, open a latch. Each is
// driven as a person does it: the lock, semaphore or latch is shown and clicked, its dialog opened (or its key
// pressed), and while the person looks the name becomes application data; then the person confirms. The console must
// refuse, say why in the status bar in the words lockscope-cli uses for the same action on the same value, leave every
// key of the server byte for byte as it was (with its expiry), publish nothing, and write no record that says anything
// changed: a record is written only where docs/cli.md says every attempt is (and then it is lockscope-cli's record,
// field by field, where the CLI writes one).
#include "auditcompare.h"
#include "clirun.h"
#include "consolefixture.h"
#include "forcereleasedialog.h"
#include "rawredis.h"
#include "rawsubscriber.h"
#include "redisserver.h"
#include "testutil.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QInputDialog>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
const QByteArray kHolder = "6e3d30b7-83b1-433a-9335-5e8b9916d3ac:1"; // someone else's hold, shown by the dialog
const QByteArray kPermit = "0123456789abcdef0123456789abcdef"; // a permit of an expirable semaphore

enum class Act { Force, ReleaseOne, ReleaseAll, AddPermits, ReleasePermit, OpenLatch };

// In each write, NAME stands for the name and WHO for what the action names there (the holder shown, the console's
// own owner field, the permit): the look-alikes keep that very field or member, so that an action that skipped its
// check would find what it looks for.
struct Value
{
    const char *id;
    QByteArray name;
    QList<QList<QByteArray>> write;
    bool countersOnly = false; // a lock: no lock action may be refused on it, a counter action must be
    bool locksOnly = false; // a counter once its name is declared, which a counter there needs to be shown at all
};

// Inside the default string lock patterns (lock:*) a waiter does not make an integer a semaphore or a latch: the
// console shows one there only when the profile declares the name as Redisson's, and lockscope-cli is then given the
// same --layout-pattern.
bool declaredHere(const QByteArray &name)
{
    return name.startsWith("lock:");
}

QList<Value> values()
{
    const QByteArray binary("bin:\x00\xff\x1b[1m\\x41", 14);
    return {
        { "hash", "user:42", { { "HSET", "NAME", "name", "ann", "email", "a@example.org" } } },
        { "zset", "leaderboard", { { "ZADD", "NAME", "10", "WHO" } } },
        { "small zset", "scores", { { "ZADD", "NAME", "1", "a" } } },
        { "string with ttl", "session:abc", { { "SET", "NAME", "v", "PX", "600000" } } },
        { "integer", "app:count", { { "SET", "NAME", "5" } } },
        // Inside the default string lock patterns, yet no lock: no TTL, an integer, a value too long for a token.
        { "lock:config", "lock:config", { { "SET", "NAME", "on" } } },
        { "lock:counter", "lock:counter", { { "SET", "NAME", "7", "PX", "600000" } }, false, true },
        { "lock:blob", "lock:blob", { { "SET", "NAME", QByteArray(300, 'x'), "PX", "600000" } } },
        { "list", "jobs", { { "RPUSH", "NAME", "WHO", "b" } } },
        { "set", "tags", { { "SADD", "NAME", "WHO" } } },
        { "stream", "events", { { "XADD", "NAME", "1-1", "WHO", "v" } } },
        { "odd count", "orders:odd", { { "HSET", "NAME", "WHO", "x" } } },
        { "field beside owner", "orders:mixed", { { "HSET", "NAME", "WHO", "1", "note", "hello" } } },
        { "unicode name", "用户:42", { { "HSET", "NAME", "name", "ann" } } },
        { "binary name", binary, { { "HSET", "NAME", "name", "ann" } } },
        { "huge name", "huge:" + QByteArray(8000, 'n'), { { "HSET", "NAME", "name", "ann" } } },
        { "huge value", "blob:big", { { "HSET", "NAME", "WHO", QByteArray(1 << 20, 'v') } } },
        { "gone", "gone:1", {} },
        { "a lock", "orders:held", { { "HSET", "NAME", kHolder, "1" }, { "PEXPIRE", "NAME", "600000" } }, true },
    };
}

const char *actName(Act act)
{
    switch (act) {
    case Act::Force:
        return "force-release";
    case Act::ReleaseOne:
        return "release-one";
    case Act::ReleaseAll:
        return "release-all";
    case Act::AddPermits:
        return "add-permits";
    case Act::ReleasePermit:
        return "release-permit";
    case Act::OpenLatch:
        return "open-latch";
    }
    return "";
}

bool isCounterAct(Act act)
{
    return act == Act::AddPermits || act == Act::ReleasePermit || act == Act::OpenLatch;
}

// The channel Redisson's waiters listen on: what makes an undeclared integer a semaphore or a latch.
QByteArray waiterChannel(Act act, const QByteArray &name)
{
    return act == Act::OpenLatch ? "redisson_countdownlatch__channel__{" + name + "}" : "redisson_sc:{" + name + "}";
}

qint64 publishes(RawRedis &raw)
{
    // Every PUBLISH and SPUBLISH the server ran: a wake-up sent for something that is no lock.
    qint64 n = 0;
    const QByteArray info = raw.command({ "INFO", "commandstats" }).bytes();
    for (const QByteArray &line : info.split('\n'))
        if (line.startsWith("cmdstat_publish:") || line.startsWith("cmdstat_spublish:"))
            n += line.mid(line.indexOf("calls=") + 6).split(',').first().toLongLong();
    return n;
}

AcquireRequest ownHold(const QByteArray &name)
{
    AcquireRequest r;
    r.name = name;
    r.token = "1";
    r.leaseMs = 600000; // no watchdog: nothing renews the key the test replaces
    return r;
}

QAbstractButton *okButton(QDialog *dialog)
{
    QDialogButtonBox *box = dialog->findChild<QDialogButtonBox *>();
    return box ? box->button(QDialogButtonBox::Ok) : nullptr;
}
} // namespace

class TestConsoleNotALockWrites : public QObject
{
    Q_OBJECT
    RedisServer m_server;
    QTemporaryDir m_dir;

    QString auditPath() const { return m_dir.filePath(QStringLiteral("audit.log")); }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
        QCOMPARE(useOwnAuditLog(m_dir), auditPath());
    }

    void init()
    {
        RawRedis raw(m_server.port());
        QVERIFY(raw.isConnected());
        raw.command({ "FLUSHALL" });
    }

    void refusedOnWhatIsNoLock_data()
    {
        QTest::addColumn<int>("value");
        QTest::addColumn<int>("act");
        const QList<Value> all = values();
        for (int v = 0; v < all.size(); ++v)
            for (const Act act :
                { Act::Force, Act::ReleaseOne, Act::ReleaseAll, Act::AddPermits, Act::ReleasePermit, Act::OpenLatch })
                if (isCounterAct(act) ? !all.at(v).locksOnly : !all.at(v).countersOnly)
                    QTest::addRow("%s, %s", all.at(v).id, actName(act)) << v << int(act);
    }

    void refusedOnWhatIsNoLock()
    {
        QFETCH(int, value);
        QFETCH(int, act);
        const Value v = values().at(value);
        const Act what = Act(act);
        const QByteArray name = v.name;
        const bool declared = isCounterAct(what) && declaredHere(name);
        LockMonitor::Options profile = Console::fastMonitor();
        if (declared)
            profile.stringPatterns.declare("redisson", name);
        Console c(ConnectionOptions::fromUrl(m_server.url()), profile);
        QVERIFY(QTest::qWaitForWindowActive(&c.window));
        RawRedis raw(m_server.port());
        std::unique_ptr<RawSubscriber> waiter;

        // What the person sees first: someone's lock, the console's own hold (two levels), a semaphore or a latch
        // someone waits on.
        QByteArray who = kHolder;
        QAction *counter = nullptr;
        if (what == Act::Force) {
            holdAs(raw, name, kHolder);
        } else if (what == Act::ReleaseOne || what == Act::ReleaseAll) {
            who = c.client.ownerField("1");
            c.actions->acquire(ownHold(name));
            QTRY_COMPARE_WITH_TIMEOUT(raw.hgetall(name).value(who), QByteArray("1"), 10000);
            c.actions->acquire(ownHold(name));
            QTRY_COMPARE_WITH_TIMEOUT(raw.hgetall(name).value(who), QByteArray("2"), 10000);
            QTRY_VERIFY_WITH_TIMEOUT(c.levelsShown(name, who) == 2 && !c.actions->ownHold(name).isEmpty(), 10000);
        } else {
            raw.command({ "SET", name, what == Act::OpenLatch ? "2" : "0" });
            if (what == Act::ReleasePermit) {
                who = kPermit;
                raw.command({ "ZADD", "{" + name + "}:timeout", "922337203685477", kPermit });
            }
            waiter = std::make_unique<RawSubscriber>(m_server.port(), waiterChannel(what, name));
            counter = c.actions->counterActions().at(what == Act::AddPermits ? 0 : what == Act::ReleasePermit ? 1 : 2);
        }
        QTRY_VERIFY_WITH_TIMEOUT(shownIndex(c, name).isValid(), 10000);
        activate(c);
        clickRow(c, name);

        // The dialog open, or the key about to be pressed.
        QPointer<QDialog> dialog;
        if (what == Act::Force) {
            QTRY_VERIFY_WITH_TIMEOUT(c.actions->forceReleaseAction()->isEnabled(), 10000);
            QTest::keyClick(c.window.locksPane()->view(), Qt::Key_Delete, Qt::ControlModifier | Qt::ShiftModifier);
            dialog = openDialog();
            QVERIFY(dialog);
            QCOMPARE(qobject_cast<ForceReleaseDialog *>(dialog.data())->shownHolders(), QList<QByteArray> { kHolder });
        } else if (counter) {
            QTRY_VERIFY_WITH_TIMEOUT(counter->isEnabled(), 10000);
            counter->trigger(); // the Lock menu's item
            dialog = openDialog();
            QVERIFY(dialog);
            if (what == Act::AddPermits) { // three permits, typed
                auto *spin = dialog->findChild<QSpinBox *>();
                QVERIFY(spin);
                spin->setFocus(Qt::OtherFocusReason);
                spin->selectAll();
                QTest::keyClicks(spin, QStringLiteral("3"));
                QCOMPARE(spin->value(), 3);
            }
        } else {
            QTRY_VERIFY(c.actions->releaseAction()->isEnabled());
        }

        // Meanwhile the name becomes the value, and nobody waits on it any more (a waiter would make an integer a
        // semaphore or a latch again).
        raw.command({ "DEL", name, "{" + name + "}:timeout" });
        if (waiter) {
            waiter.reset();
            QTRY_COMPARE_WITH_TIMEOUT(
                raw.command({ "PUBSUB", "NUMSUB", waiterChannel(what, name) }).at(1).toInteger(), 0, 10000);
        }
        for (QList<QByteArray> write : v.write) {
            for (QByteArray &arg : write)
                arg = arg == "NAME" ? name : arg == "WHO" ? who : arg;
            QVERIFY(!raw.command(write).isError());
        }
        const auto before = everything(raw);
        const qint64 published = publishes(raw);
        const qsizetype audited = auditLines(auditPath()).size();
        QSignalSpy messages(c.actions, &ConsoleActions::message);

        // The person confirms: a click on the dialog's own button, or the release's key in the table.
        if (what == Act::Force)
            QTest::mouseClick(qobject_cast<ForceReleaseDialog *>(dialog.data())->confirmButton(), Qt::LeftButton);
        else if (what == Act::OpenLatch)
            QTest::mouseClick(qobject_cast<QMessageBox *>(dialog.data())->button(QMessageBox::Yes), Qt::LeftButton);
        else if (counter)
            QTest::mouseClick(okButton(dialog), Qt::LeftButton);
        else // at once, as a person who pressed it before the console noticed the change
            QTest::keyClick(c.window.locksPane()->view(), Qt::Key_R,
                what == Act::ReleaseAll ? Qt::ControlModifier | Qt::ShiftModifier : Qt::ControlModifier);
        QTRY_VERIFY_WITH_TIMEOUT(!messages.isEmpty(), 20000);
        settle(c);
        if (QTest::currentTestFailed())
            return;

        // Refused, and said so where the person looks.
        QCOMPARE(messages.size(), 1);
        const QString said = messages.first().at(0).toString();
        QVERIFY2(messages.first().at(1).toBool(), qPrintable(said)); // as an error
        QVERIFY2(c.window.statusMessage().contains(said), qPrintable(c.window.statusMessage()));
        // Nothing changed, nobody was told anything.
        QVERIFY(everything(raw) == before);
        QCOMPARE(publishes(raw), published);
        const QList<QJsonObject> console = auditLinesFrom(auditPath(), audited);

        // lockscope-cli, the same action on the same value, with --yes.
        QStringList args;
        const QString cliName = name.startsWith("bin:") ? QString::fromLatin1(name.toHex()) : QString::fromUtf8(name);
        const QStringList hex = name.startsWith("bin:") ? QStringList { QStringLiteral("--hex") } : QStringList();
        switch (what) {
        case Act::Force:
            args = QStringList { QStringLiteral("force-release") } + hex
                + QStringList { cliName, QStringLiteral("--yes") };
            break;
        case Act::ReleaseOne:
        case Act::ReleaseAll:
            args = QStringList { QStringLiteral("release") } + hex
                + QStringList { cliName, QStringLiteral("--owner"), QString::fromUtf8(who) };
            break;
        case Act::AddPermits:
            args = QStringList { QStringLiteral("add-permits") } + hex
                + QStringList { cliName, QStringLiteral("--permits"), QStringLiteral("3") };
            break;
        case Act::ReleasePermit:
            args = QStringList { QStringLiteral("release-permit") } + hex
                + QStringList { cliName, QStringLiteral("--permit"), QString::fromUtf8(kPermit) };
            break;
        case Act::OpenLatch:
            args
                = QStringList { QStringLiteral("open-latch") } + hex + QStringList { cliName, QStringLiteral("--yes") };
            break;
        }
        const qsizetype cliFrom = auditLines(auditPath()).size();
        args << QStringLiteral("--url") << m_server.url();
        if (declared)
            args << QStringLiteral("--layout-pattern") << QStringLiteral("redisson=") + QString::fromUtf8(name);
        const CliRun r = runCli(args, m_dir);
        QVERIFY2(r.exitCode == CliExit::NotDone, r.describe().constData());
        QVERIFY(everything(raw) == before);
        const QList<QJsonObject> cli = auditLinesFrom(auditPath(), cliFrom);
        // The CLI's reason (its last line, without the program's name its errors start with): the console says the
        // same. But of a name gone after it was shown: lockscope-cli, which finds nothing before it would ask, says
        // there is nothing to act on; the console, asked on what it showed, that it was already gone.
        const QString reason
            = QString::fromUtf8(r.err.trimmed().split('\n').last()).remove(QStringLiteral("lockscope-cli: "));
        if (v.write.isEmpty() && (what == Act::Force || what == Act::OpenLatch))
            QVERIFY2(said.startsWith(QString::fromUtf8(name) + QStringLiteral(" was already gone"))
                    && said.endsWith(QStringLiteral("nothing changed")),
                qPrintable(said));
        else
            QVERIFY2(
                said.contains(reason), qPrintable(QStringLiteral("console: %1\nlockscope-cli: %2").arg(said, reason)));

        // No record says anything changed; one attempt, one record at most; the CLI's where it wrote one.
        static const QStringList unchanged { QStringLiteral("failed"), QStringLiteral("not-held"),
            QStringLiteral("guard-failed"), QStringLiteral("already-gone") };
        QVERIFY2(console.size() <= 1, qPrintable(QString::number(console.size())));
        for (const QJsonObject &record : console)
            QVERIFY2(unchanged.contains(record.value(QStringLiteral("outcome")).toString()),
                QJsonDocument(record).toJson(QJsonDocument::Compact).constData());
        if (!cli.isEmpty()) {
            QCOMPARE(cli.size(), 1);
            QCOMPARE(console.size(), 1);
            compareAuditRecords(cli.first(), console.first());
        }
        if (dialog)
            dialog->close();
    }
};

QTEST_MAIN(TestConsoleNotALockWrites)
#include "tst_consolenotalockwrites.moc"
