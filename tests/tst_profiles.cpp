// The console's saved connections read by lockscope-cli --profile NAME: where to connect, read-only, the key pattern
// and string lock patterns come from the profile; passwords from the keychain (here a store in memory, and no
// keychain at all for the CLI: the test's environment has no session bus); a mistyped name or a second "where"
// connects nowhere.
#include "clirun.h"
#include "profiles/profileconnection.h"
#include "rawredis.h"
#include "redisserver.h"
#include "testutil.h"

#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

using namespace LockScope;
using namespace LockScope::Test;

namespace {
const QByteArray kPassword = "profile-pw-3c9d";
const QByteArray kOwner = "8c4b3e0e-5b1a-4c4f-9d8a-0f4e2b7a9c11:1";

// A store that counts what it was asked for, answering later as a keychain does.
class CountingStore : public MemorySecretStore
{
public:
    void read(const QString &profile, std::function<void(const QByteArray &secret)> done) override
    {
        asked << profile;
        QTimer::singleShot(0, [this, profile, done] { MemorySecretStore::read(profile, done); });
    }
    QStringList asked;
};
} // namespace

class TestProfiles : public QObject
{
    Q_OBJECT
    RedisServer m_server { RedisServerOptions { {}, false, false, QString::fromLatin1(kPassword) } };
    QTemporaryDir m_dir;

    QString configHome() const { return m_dir.filePath(QStringLiteral("config")); }

    // The profiles where the console keeps them, under this test's own XDG_CONFIG_HOME.
    void saveProfiles(const QList<ConnectionProfile> &profiles)
    {
        QSettings settings(configHome() + QStringLiteral("/lockscope/lockscope.conf"), QSettings::IniFormat);
        ConnectionProfile::save(profiles, settings);
        settings.sync();
        QCOMPARE(settings.status(), QSettings::NoError);
    }

    ConnectionProfile profile(const QString &name) const
    {
        ConnectionProfile p;
        p.name = name;
        p.url = m_server.url();
        return p;
    }

    CliRun cli(QStringList args, bool password = true)
    {
        QProcess p;
        QProcessEnvironment e = cliEnvironment(m_dir);
        e.insert(QStringLiteral("XDG_CONFIG_HOME"), configHome());
        e.remove(QStringLiteral("DBUS_SESSION_BUS_ADDRESS")); // no keychain: the password is the person's to give
        e.insert(QStringLiteral("PROFILE_PW"), QString::fromLatin1(kPassword));
        if (password)
            args << QStringLiteral("--password-env") << QStringLiteral("PROFILE_PW");
        startCli(p, args, e);
        p.closeWriteChannel();
        CliRun r = finishCli(p);
        r.args = args;
        return r;
    }

    void holdLock(RawRedis &raw, const QByteArray &name)
    {
        QCOMPARE(raw.command({ "HSET", name, kOwner, "1" }).toInteger(), 1);
        QCOMPARE(raw.command({ "PEXPIRE", name, "600000" }).toInteger(), 1);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
    }

    void profileSaysWhereReadOnlyAndPattern()
    {
        RawRedis raw(m_server.port(), {}, kPassword);
        holdLock(raw, "orders:1");
        holdLock(raw, "billing:1");
        ConnectionProfile staging = profile(QStringLiteral("staging"));
        staging.readOnly = true;
        staging.pattern = QStringLiteral("orders:*");
        saveProfiles({ profile(QStringLiteral("dev")), staging });

        // Only the profile's pattern is listed; --pattern still wins over it.
        CliRun r = cli({ QStringLiteral("--json"), QStringLiteral("list"), QStringLiteral("--profile"),
            QStringLiteral("staging") });
        CLI_EXIT(r, CliExit::Done);
        QVERIFY2(r.out.contains("orders:1") && !r.out.contains("billing:1"), r.describe().constData());
        r = cli({ QStringLiteral("--json"), QStringLiteral("list"), QStringLiteral("--profile"),
            QStringLiteral("staging"), QStringLiteral("--pattern"), QStringLiteral("billing:*") });
        CLI_EXIT(r, CliExit::Done);
        QVERIFY2(!r.out.contains("orders:1") && r.out.contains("billing:1"), r.describe().constData());

        // Saved read-only: a force release is refused before it reaches the server.
        r = cli({ QStringLiteral("force-release"), QStringLiteral("orders:1"), QStringLiteral("--yes"),
            QStringLiteral("--profile"), QStringLiteral("staging") });
        CLI_REFUSED(r, CliExit::Refused, "read-only");
        QCOMPARE(raw.command({ "EXISTS", "orders:1" }).toInteger(), 1);

        // The same server through a profile that may write: the lock goes.
        r = cli({ QStringLiteral("force-release"), QStringLiteral("orders:1"), QStringLiteral("--yes"),
            QStringLiteral("--profile"), QStringLiteral("dev") });
        CLI_EXIT(r, CliExit::Done);
        QCOMPARE(raw.command({ "EXISTS", "orders:1" }).toInteger(), 0);
        raw.command({ "DEL", "billing:1" });
    }

    void profileStringLockPatterns()
    {
        RawRedis raw(m_server.port(), {}, kPassword);
        QCOMPARE(raw.command({ "SET", "jobs:nightly", "a1b2c3d4e5f6a7b8c9d0", "PX", "600000" }).bytes(), "OK");
        ConnectionProfile jobs = profile(QStringLiteral("jobs"));
        jobs.stringPatterns = QStringLiteral("jobs:*");
        ConnectionProfile none = profile(QStringLiteral("none"));
        none.stringPatterns.clear();
        saveProfiles({ jobs, none });

        CliRun r = cli(
            { QStringLiteral("--json"), QStringLiteral("list"), QStringLiteral("--profile"), QStringLiteral("jobs") });
        CLI_EXIT(r, CliExit::Done);
        QVERIFY2(r.out.contains("jobs:nightly"), r.describe().constData());
        // A profile saved to look for no string locks looks for none, unless the command line says where.
        r = cli(
            { QStringLiteral("--json"), QStringLiteral("list"), QStringLiteral("--profile"), QStringLiteral("none") });
        CLI_EXIT(r, CliExit::Done);
        QVERIFY2(!r.out.contains("jobs:nightly"), r.describe().constData());
        r = cli({ QStringLiteral("--json"), QStringLiteral("list"), QStringLiteral("--profile"), QStringLiteral("none"),
            QStringLiteral("--string-locks"), QStringLiteral("jobs:*") });
        CLI_EXIT(r, CliExit::Done);
        QVERIFY2(r.out.contains("jobs:nightly"), r.describe().constData());
        raw.command({ "DEL", "jobs:nightly" });
    }

    void productionNeedsTheNameTyped()
    {
        // A profile marked production: --yes alone deletes nothing; with the name typed (--confirm-name) it does.
        RawRedis raw(m_server.port(), {}, kPassword);
        const QByteArray name = uniqueKey("prod");
        holdLock(raw, name);
        ConnectionProfile prod = profile(QStringLiteral("prod"));
        prod.production = true;
        saveProfiles({ prod });
        CliRun r = cli({ QStringLiteral("force-release"), QString::fromUtf8(name), QStringLiteral("--yes"),
            QStringLiteral("--profile"), QStringLiteral("prod") });
        CLI_REFUSED(r, CliExit::Usage, "prod is a production server: --yes needs --confirm-name " + name);
        QCOMPARE(raw.hgetall(name).value(kOwner), QByteArray("1"));
        r = cli({ QStringLiteral("force-release"), QString::fromUtf8(name), QStringLiteral("--yes"),
            QStringLiteral("--confirm-name"), QString::fromUtf8(name + "x"), QStringLiteral("--profile"),
            QStringLiteral("prod") });
        QCOMPARE(r.exitCode, CliExit::Usage);
        QCOMPARE(raw.hgetall(name).value(kOwner), QByteArray("1"));
        r = cli({ QStringLiteral("force-release"), QString::fromUtf8(name), QStringLiteral("--yes"),
            QStringLiteral("--confirm-name"), QString::fromUtf8(name), QStringLiteral("--profile"),
            QStringLiteral("prod") });
        CLI_EXIT(r, CliExit::Done);
        QCOMPARE(raw.type(name), QByteArray("none"));

        // At a terminal a "y" cancels: the name is what is typed.
        holdLock(raw, name);
        QProcessEnvironment e = cliEnvironment(m_dir);
        e.insert(QStringLiteral("XDG_CONFIG_HOME"), configHome());
        e.remove(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"));
        e.insert(QStringLiteral("PROFILE_PW"), QString::fromLatin1(kPassword));
        const QStringList args { QStringLiteral("force-release"), QString::fromUtf8(name), QStringLiteral("--profile"),
            QStringLiteral("prod"), QStringLiteral("--password-env"), QStringLiteral("PROFILE_PW") };
        QProcess p;
        startCliAtTerminal(p, args, e);
        QByteArray seen;
        QTRY_VERIFY2_WITH_TIMEOUT((seen += p.readAllStandardOutput()).contains("to confirm:"), seen.constData(), 30000);
        QVERIFY2(seen.contains("prod is a production server: type " + name), seen.constData());
        p.write("y\n");
        QCOMPARE(finishCliAtTerminal(p, 30000, seen).exitCode, CliExit::NotDone);
        QCOMPARE(raw.hgetall(name).value(kOwner), QByteArray("1"));
        QProcess typed;
        startCliAtTerminal(typed, args, e);
        seen.clear();
        QTRY_VERIFY2_WITH_TIMEOUT(
            (seen += typed.readAllStandardOutput()).contains("to confirm:"), seen.constData(), 30000);
        typed.write(name + "\n");
        QCOMPARE(finishCliAtTerminal(typed, 30000, seen).exitCode, CliExit::Done);
        QCOMPARE(raw.type(name), QByteArray("none"));
    }

    void mistypedNameConnectsNowhere()
    {
        saveProfiles({ profile(QStringLiteral("staging")), profile(QStringLiteral("dev")) });
        RawRedis raw(m_server.port(), {}, kPassword);
        holdLock(raw, "orders:2");
        const CliRun r = cli({ QStringLiteral("force-release"), QStringLiteral("orders:2"), QStringLiteral("--yes"),
            QStringLiteral("--profile"), QStringLiteral("stagign") });
        CLI_REFUSED(r, CliExit::Usage, "saved: staging, dev");
        QCOMPARE(raw.command({ "EXISTS", "orders:2" }).toInteger(), 1);
        raw.command({ "DEL", "orders:2" });
    }

    void whereOptionsExcludeAProfile_data()
    {
        QTest::addColumn<QStringList>("extra");
        QTest::newRow("url") << QStringList { QStringLiteral("--url"), m_server.url() };
        QTest::newRow("cluster") << QStringList { QStringLiteral("--cluster") };
        QTest::newRow("ssh") << QStringList { QStringLiteral("--ssh"), QStringLiteral("me@example.invalid") };
        QTest::newRow("tls-insecure") << QStringList { QStringLiteral("--tls-insecure") };
    }

    void whereOptionsExcludeAProfile()
    {
        QFETCH(QStringList, extra);
        saveProfiles({ profile(QStringLiteral("dev")) });
        const CliRun r
            = cli(QStringList { QStringLiteral("list"), QStringLiteral("--profile"), QStringLiteral("dev") } + extra);
        CLI_REFUSED(r, CliExit::Usage, "--profile");
    }

    void noKeychainNoPassword()
    {
        // The profile holds no password and there is no keychain here: nothing is guessed, the server says why.
        saveProfiles({ profile(QStringLiteral("dev")) });
        const CliRun r = cli({ QStringLiteral("list"), QStringLiteral("--profile"), QStringLiteral("dev") }, false);
        CLI_REFUSED(r, CliExit::Connect, "NOAUTH");
    }

    void secretsComeFromTheStore()
    {
        CountingStore store;
        store.MemorySecretStore::write(QStringLiteral("dev"), kPassword);
        store.MemorySecretStore::write(ConnectionProfile::sshSecretName(QStringLiteral("dev")), "ssh-pw");
        ConnectionProfile dev = profile(QStringLiteral("dev"));

        std::optional<ProfileSecrets> got;
        readProfileSecrets(dev, &store, [&](const ProfileSecrets &s) { got = s; });
        QTRY_VERIFY(got.has_value());
        QCOMPARE(got->password, kPassword);
        QVERIFY(got->sshPassword.isEmpty()); // no SSH host: its password is not even asked for
        QCOMPARE(store.asked, QStringList { QStringLiteral("dev") });

        dev.ssh = QStringLiteral("me@bastion");
        got.reset();
        store.asked.clear();
        readProfileSecrets(dev, &store, [&](const ProfileSecrets &s) { got = s; });
        QTRY_VERIFY(got.has_value());
        QCOMPARE(got->sshPassword, QByteArray("ssh-pw"));
        QCOMPARE(store.asked.size(), 2);
        RedisError error;
        const ConnectionOptions o = dev.options(got->password, &error, got->sshPassword);
        QVERIFY2(!error.isError(), qPrintable(error.toString()));
        QCOMPARE(o.password, kPassword);
        QCOMPARE(o.ssh.password, QByteArray("ssh-pw"));

        // No store: at once, nothing.
        got.reset();
        readProfileSecrets(dev, nullptr, [&](const ProfileSecrets &s) { got = s; });
        QVERIFY(got.has_value() && got->password.isEmpty());
    }

    void colourNames()
    {
        QCOMPARE(ConnectionProfile::colourName(QStringLiteral("#F75B52")), QStringLiteral("#f75b52"));
        QCOMPARE(ConnectionProfile::colourName(QStringLiteral(" #abc ")), QStringLiteral("#aabbcc"));
        QCOMPARE(ConnectionProfile::colourName(QStringLiteral("red")), QString());
        QCOMPARE(ConnectionProfile::colourName(QStringLiteral("#12345")), QString());
        QCOMPARE(ConnectionProfile::colourName(QString()), QString());
    }
};

QTEST_GUILESS_MAIN(TestProfiles)
#include "tst_profiles.moc"
