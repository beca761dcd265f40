// Connections saved in other Redis GUIs become LockScope profiles: sample files in each program's own format
// (RESP.app's connections.json, Another Redis Desktop Manager's base64 export in both its forms, Tiny RDM's
// connections.yaml and its export zip) and a redis:// URL list. Passwords go to the keychain, never to the settings
// file.
#include "connectiondialog.h"
#include "profiles/profileimport.h"

#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>

using namespace LockScope;

class TestProfileImport : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void sameTwoConnectionsFromEachProgram_data();
    void sameTwoConnectionsFromEachProgram();
    void sentinelTlsClusterAndWhatCannotBeCarried();
    void anotherRdmSentinelAndTls();
    void urlList();
    void aHostThatIsNoHostNameIsSkipped();
    void unreadableFilesImportNothing_data();
    void unreadableFilesImportNothing();
    void passwordsGoToTheKeychainNeverToSettings();
    void withoutAKeychainPasswordsAreDropped();
    void theDialogImportsAndShowsTheProfiles();

private:
    static QString sample(const char *name)
    {
        return QStringLiteral(LOCKSCOPE_IMPORT_SAMPLES "/") + QLatin1String(name);
    }
    static const ImportedProfile *find(const ProfileImport &import, const QString &name);
    static QByteArray settingsFileContents();
};

void TestProfileImport::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("lockscope-test"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_profileimport"));
}

void TestProfileImport::init()
{
    QSettings().clear();
}

const ImportedProfile *TestProfileImport::find(const ProfileImport &import, const QString &name)
{
    for (const ImportedProfile &p : import.profiles)
        if (p.profile.name == name)
            return &p;
    return nullptr;
}

QByteArray TestProfileImport::settingsFileContents()
{
    QSettings settings;
    settings.sync();
    QFile file(settings.fileName());
    file.open(QIODevice::ReadOnly);
    return file.readAll();
}

void TestProfileImport::sameTwoConnectionsFromEachProgram_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("format");
    QTest::addColumn<QString>("grouped"); // the SSH connection's name: group/name where the format keeps groups
    QTest::newRow("RESP.app connections.json") << sample("respapp-connections.json") << "RESP.app"
                                               << "prod/prod-cache";
    QTest::newRow("ARDM connections.ano (1.7.2+)") << sample("ardm-connections.ano") << "Another Redis Desktop Manager"
                                                   << "prod/prod-cache";
    QTest::newRow("ARDM connections.ano (before 1.7.2)") << sample("ardm-legacy.ano") << "Another Redis Desktop Manager"
                                                         << "prod-cache";
    QTest::newRow("Tiny RDM connections.yaml") << sample("tinyrdm-connections.yaml") << "Tiny RDM"
                                               << "prod/prod-cache";
    QTest::newRow("Tiny RDM export zip") << sample("tinyrdm-export.zip") << "Tiny RDM"
                                         << "prod/prod-cache";
}

void TestProfileImport::sameTwoConnectionsFromEachProgram()
{
    QFETCH(QString, file);
    QFETCH(QString, format);
    QFETCH(QString, grouped);
    const ProfileImport import = importProfiles(file);
    QVERIFY2(import.error.isEmpty(), qPrintable(import.error));
    QCOMPARE(import.format, format);
    QCOMPARE(import.profiles.size(), 2);

    const ImportedProfile *direct = find(import, QStringLiteral("local-dev"));
    QVERIFY(direct);
    QCOMPARE(direct->profile.url, QStringLiteral("redis://127.0.0.1:6379/0"));
    QCOMPARE(direct->password, QByteArray("s3cret"));
    QVERIFY(direct->profile.ssh.isEmpty());

    const ImportedProfile *tunnelled = find(import, grouped);
    QVERIFY2(tunnelled, qPrintable(import.profiles.last().profile.name));
    QCOMPARE(tunnelled->profile.url, QStringLiteral("redis://default@10.0.1.15:6379/0"));
    QCOMPARE(tunnelled->password, QByteArray("r3dis-pass"));
    QCOMPARE(tunnelled->profile.ssh, QStringLiteral("ubuntu@bastion.example.com"));
    QCOMPARE(tunnelled->profile.sshKeyFile, QStringLiteral("/home/user/.ssh/id_ed25519"));
    // Profiles never hold a password, and the options they make connect through that host.
    QVERIFY(!tunnelled->profile.url.contains(QStringLiteral("r3dis")));
    RedisError error;
    const ConnectionOptions o = tunnelled->profile.options(tunnelled->password, &error);
    QVERIFY(!error.isError());
    QCOMPARE(o.ssh.host, QStringLiteral("bastion.example.com"));
    QCOMPARE(o.ssh.user, QStringLiteral("ubuntu"));
    QCOMPARE(o.host, QStringLiteral("10.0.1.15"));
    // ARDM and Tiny RDM samples carry a key passphrase: not kept, and said so.
    if (format != QLatin1String("RESP.app"))
        QVERIFY(tunnelled->notes.join(QLatin1Char(' ')).contains(QStringLiteral("passphrase")));
}

void TestProfileImport::sentinelTlsClusterAndWhatCannotBeCarried()
{
    const ProfileImport import = importProfiles(sample("tinyrdm-more.yaml"));
    QVERIFY2(import.error.isEmpty(), qPrintable(import.error));
    QCOMPARE(import.profiles.size(), 3);
    // A Unix socket on someone's machine is no connection from here: skipped, and said.
    QCOMPARE(import.skipped.size(), 1);
    QVERIFY(import.skipped.first().contains(QStringLiteral("/run/redis/redis.sock")));

    const ImportedProfile *sentinel = find(import, QStringLiteral("sentinel-prod"));
    QVERIFY(sentinel);
    QCOMPARE(sentinel->profile.topology, QStringLiteral("sentinel"));
    QCOMPARE(sentinel->profile.sentinels, QStringLiteral("10.0.2.10:26379"));
    QCOMPARE(sentinel->profile.sentinelMaster, QStringLiteral("mymaster"));
    QCOMPARE(sentinel->password, QByteArray("node-pass"));
    QVERIFY(!sentinel->notes.isEmpty());

    const ImportedProfile *tls = find(import, QStringLiteral("tls-cluster"));
    QVERIFY(tls);
    QCOMPARE(tls->profile.url, QStringLiteral("rediss://redis.example.com:7000/0"));
    QCOMPARE(tls->profile.topology, QStringLiteral("cluster"));
    QCOMPARE(tls->profile.tlsCaFile, QStringLiteral("/etc/ssl/redis-ca.pem"));
    QCOMPARE(tls->profile.tlsServerName, QStringLiteral("redis.example.com"));
    QCOMPARE(tls->profile.colour, QStringLiteral("#f75b52"));
    QVERIFY(tls->notes.join(QLatin1Char(' ')).contains(QStringLiteral("checks the certificate")));

    // Files from before Tiny RDM 1.1.9 (camelCase TLS keys), and a password login through SSH.
    const ImportedProfile *old = find(import, QStringLiteral("old-ssl"));
    QVERIFY(old);
    QCOMPARE(old->profile.tlsCaFile, QStringLiteral("/old/ca.pem"));
    QCOMPARE(old->profile.ssh, QStringLiteral("deploy@jump.example.com:2222"));
    QCOMPARE(old->sshPassword, QByteArray("ssh-secret"));
    QVERIFY(old->profile.sshKeyFile.isEmpty());
}

void TestProfileImport::anotherRdmSentinelAndTls()
{
    const ProfileImport import = importProfiles(sample("ardm-more.ano"));
    QVERIFY2(import.error.isEmpty(), qPrintable(import.error));
    QCOMPARE(import.profiles.size(), 2);
    const ImportedProfile *sentinel = find(import, QStringLiteral("sentinel-prod"));
    QVERIFY(sentinel);
    QCOMPARE(sentinel->profile.topology, QStringLiteral("sentinel"));
    QCOMPARE(sentinel->profile.sentinels, QStringLiteral("10.0.2.10:26379")); // the port was a string
    QCOMPARE(sentinel->password, QByteArray("node-pass")); // the master's, not the sentinels' auth
    QVERIFY(sentinel->profile.readOnly);
    const ImportedProfile *tls = find(import, QStringLiteral("tls"));
    QVERIFY(tls);
    QCOMPARE(tls->profile.url, QStringLiteral("rediss://redis.example.com:6380/0"));
    QCOMPARE(tls->profile.topology, QStringLiteral("cluster"));
    QCOMPARE(tls->profile.tlsKeyFile, QStringLiteral("/k.pem"));
    QCOMPARE(tls->profile.tlsCertFile, QStringLiteral("/c.pem"));
    QCOMPARE(tls->profile.tlsCaFile, QStringLiteral("/ca.pem"));
    QCOMPARE(tls->profile.tlsServerName, QStringLiteral("redis.example.com"));
}

void TestProfileImport::urlList()
{
    const ProfileImport import = importProfiles(sample("urls.txt"));
    QVERIFY2(import.error.isEmpty(), qPrintable(import.error));
    QCOMPARE(import.format, QStringLiteral("redis:// URLs"));
    QCOMPARE(import.profiles.size(), 3);
    QCOMPARE(import.skipped.size(), 1); // "not a url at all", by its line number
    QVERIFY(import.skipped.first().contains(QStringLiteral("line 4")));
    const ImportedProfile *named = find(import, QStringLiteral("orders-prod"));
    QVERIFY(named);
    QCOMPARE(named->profile.url, QStringLiteral("rediss://ops@redis.example.com:6380/2"));
    QCOMPARE(named->password, QByteArray("p@ss"));
    QCOMPARE(import.profiles.last().password, QByteArray("only-pass"));
    QVERIFY(!import.profiles.last().profile.url.contains(QStringLiteral("only-pass")));
}

// Found by fuzz_import: a host of bytes that are not UTF-8 gave a profile with no URL and no name.
void TestProfileImport::aHostThatIsNoHostNameIsSkipped()
{
    const ProfileImport import = importProfilesFromData(
        "- name: broken\n  addr: \x9c\n- addr: \xff\xfe\n- name: good\n  addr: redis.example.com\n");
    QVERIFY2(import.error.isEmpty(), qPrintable(import.error));
    QCOMPARE(import.format, QStringLiteral("Tiny RDM"));
    QCOMPARE(import.profiles.size(), 1);
    QCOMPARE(import.profiles.first().profile.name, QStringLiteral("good"));
    QCOMPARE(import.profiles.first().profile.url, QStringLiteral("redis://redis.example.com:6379/0"));
    QCOMPARE(import.skipped,
        QStringList({ QStringLiteral("broken: no host name LockScope can connect to"),
            QStringLiteral("a connection without a name: no host name LockScope can connect to") }));
}

void TestProfileImport::unreadableFilesImportNothing_data()
{
    QTest::addColumn<QByteArray>("data");
    QTest::newRow("empty") << QByteArray();
    QTest::newRow("binary") << QByteArray("\x00\x01\x02\xff\xfe garbage", 14);
    QTest::newRow("JSON object that is no bundle") << QByteArray("{\"connections\": 42}");
    QTest::newRow("broken YAML") << QByteArray("- name: [unclosed\n  addr: {");
    QTest::newRow("YAML that is not a list") << QByteArray("--- just a string\n");
    QTest::newRow("zip without connections.yaml") << QByteArray("PK\x03\x04"
                                                                "not really a zip"); // no NUL: its own length
    QTest::newRow("base64 of no JSON") << QByteArray("aGVsbG8gd29ybGQ=");
}

void TestProfileImport::unreadableFilesImportNothing()
{
    QFETCH(QByteArray, data);
    const ProfileImport import = importProfilesFromData(data);
    QVERIFY2(!import.error.isEmpty() || (import.profiles.isEmpty()), qPrintable(import.format));
    QVERIFY(import.profiles.isEmpty());
    QList<ConnectionProfile> profiles;
    MemorySecretStore secrets;
    const QString said = addImported(import, &profiles, &secrets);
    QVERIFY(profiles.isEmpty());
    QVERIFY(!said.isEmpty());
}

void TestProfileImport::passwordsGoToTheKeychainNeverToSettings()
{
    MemorySecretStore secrets;
    QList<ConnectionProfile> profiles;
    ConnectionProfile existing;
    existing.name = QStringLiteral("local-dev");
    existing.url = QStringLiteral("redis://127.0.0.1:6379/0");
    profiles << existing;
    const QString said = addImported(importProfiles(sample("tinyrdm-more.yaml")), &profiles, &secrets);
    addImported(importProfiles(sample("respapp-connections.json")), &profiles, &secrets);
    ConnectionProfile::save(profiles);
    QVERIFY2(said.contains(QStringLiteral("Tiny RDM")), qPrintable(said));
    QVERIFY2(said.contains(QStringLiteral("local-socket")), qPrintable(said)); // what was skipped is said

    // A name already taken is kept apart, not overwritten.
    QStringList names;
    for (const ConnectionProfile &p : ConnectionProfile::load())
        names << p.name;
    QVERIFY2(names.contains(QStringLiteral("local-dev")) && names.contains(QStringLiteral("local-dev (2)")),
        qPrintable(names.join(QLatin1Char(','))));
    QCOMPARE(names.size(), 1 + 3 + 2);

    QByteArray secret;
    secrets.read(QStringLiteral("local-dev (2)"), [&](const QByteArray &s) { secret = s; });
    QCOMPARE(secret, QByteArray("s3cret"));
    secrets.read(ConnectionProfile::sshSecretName(QStringLiteral("old-ssl")), [&](const QByteArray &s) { secret = s; });
    QCOMPARE(secret, QByteArray("ssh-secret"));
    const QByteArray file = settingsFileContents();
    QVERIFY(file.contains("bastion.example.com"));
    for (const char *password : { "s3cret", "r3dis-pass", "node-pass", "ssh-secret", "sentinel-pass" })
        QVERIFY2(!file.contains(password), password);
}

void TestProfileImport::withoutAKeychainPasswordsAreDropped()
{
    QList<ConnectionProfile> profiles;
    const QString said = addImported(importProfiles(sample("respapp-connections.json")), &profiles, nullptr);
    QCOMPARE(profiles.size(), 2);
    QVERIFY2(said.contains(QStringLiteral("not kept")), qPrintable(said));
    ConnectionProfile::save(profiles);
    QVERIFY(!settingsFileContents().contains("s3cret"));
}

void TestProfileImport::theDialogImportsAndShowsTheProfiles()
{
    MemorySecretStore secrets;
    ConnectionDialog dialog(&secrets);
    dialog.importFrom(sample("ardm-connections.ano"));
    QVERIFY2(
        dialog.testResult()->text().contains(QStringLiteral("Imported 2")), qPrintable(dialog.testResult()->text()));
    // The first imported profile is shown, password and all (from the keychain).
    QCOMPARE(dialog.profile().name, QStringLiteral("local-dev"));
    QCOMPARE(dialog.passwordEdit()->text(), QStringLiteral("s3cret"));
    QComboBox *profiles = dialog.profileBox();
    profiles->setCurrentIndex(profiles->findText(QStringLiteral("prod/prod-cache")));
    QCOMPARE(dialog.profile().ssh, QStringLiteral("ubuntu@bastion.example.com"));
    QCOMPARE(dialog.options().ssh.display(), QStringLiteral("ubuntu@bastion.example.com"));
    // Beside the URL, on the first page: the URL is the server as the bastion sees it.
    bool said = false;
    for (QLabel *label : dialog.findChildren<QLabel *>())
        said = said
            || (!label->isHidden() && label->text().contains(QStringLiteral("Through SSH ubuntu@bastion.example.com")));
    QVERIFY(said);
    profiles->setCurrentIndex(profiles->findText(QStringLiteral("local-dev")));
    for (QLabel *label : dialog.findChildren<QLabel *>())
        QVERIFY(label->isHidden() || !label->text().contains(QStringLiteral("Through SSH")));
    QCOMPARE(ConnectionProfile::load().size(), 2);
}

QTEST_MAIN(TestProfileImport)
#include "tst_profileimport.moc"
