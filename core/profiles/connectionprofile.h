#pragma once

#include "kinds/keyglob.h"

#include "redis/connectionoptions.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <functional>

class QSettings;

namespace LockScope {

// A saved connection. Never holds a password: that lives in a SecretStore, or is asked for each time.
struct ConnectionProfile
{
    QString name;
    QString url; // redis:// or rediss://, without a password
    QString tlsCaFile;
    QString tlsCertFile;
    QString tlsKeyFile;
    QString tlsServerName;
    bool readOnly = false;
    QString pattern = QStringLiteral("*");
    QString colour; // "#rrggbb", or empty: none (the console's colour tag)
    QString topology = QStringLiteral("auto"); // "auto" (one server, or a cluster found from it), "cluster", "sentinel"
    QString sentinels; // "host:port,..." for "sentinel"
    QString sentinelMaster;
    QString publishMode = QStringLiteral("auto"); // auto, plain, sharded, both (ConnectionOptions::publishModeName)
    bool replicaReads = false; // the monitor reads from a cluster's replicas
    // After lock writes on a master with replicas (Redisson's slavesSyncTimeout and checkLockSyncedSlaves).
    int replicaSyncTimeoutMs = 1000; // 0: never wait
    bool checkSyncedReplicas = true;
    // Through an SSH host (empty: direct): USER@HOST[:PORT], the key (empty: the agent, then ~/.ssh/id_*) and the
    // known_hosts file (empty: ~/.ssh/known_hosts). The SSH password, like Redis's, is kept in the keychain only.
    QString ssh;
    QString sshKeyFile;
    QString sshKnownHostsFile;
    // Where string locks (SET NX PX) are looked for: globs separated by whitespace, as typed; empty: nowhere.
    QString stringPatterns = defaultStringPatterns();
    // Home-grown locks: "GLOB=SPEC" each (kinds/custom/ownertemplate.h, as --owner-template takes them).
    QStringList ownerTemplates;
    // A production server: the console shows it in the header, and a destructive action needs the lock's name typed
    // (lockscope-cli: typed at the prompt, or --confirm-name with --yes).
    bool production = false;
    // Where each audited action is also posted (webhook URLs; docs/cli.md#notifications).
    QStringList notify;

    static QString defaultStringPatterns(); // StringLockPatterns::defaults(), separated by spaces
    // A colour as "#rrggbb" (from "#RGB" or "#RRGGBB", any case), or empty when the text is no such colour.
    static QString colourName(const QString &text);
    // stringPatterns split on whitespace, for LockMonitor::Options::stringPatterns.
    QList<QByteArray> stringPatternList() const;
    // The same list read as patterns and, for "LIBRARY=GLOB" entries, names declared as a library's; with the owner
    // templates (one that does not parse is left out: the profile editor refuses it).
    StringLockPatterns stringLockPatterns() const;

    // The options to connect with (passwords given separately); error when the URL or the SSH host does not parse.
    ConnectionOptions options(
        const QByteArray &password, RedisError *error = nullptr, const QByteArray &sshPassword = {}) const;
    // The keychain entry of a profile's SSH password (its Redis password is under the profile's name).
    static QString sshSecretName(const QString &profile) { return profile + QStringLiteral(" (SSH)"); }
    // A profile from a pasted URL: the password, if the URL had one, goes to *password, never into the profile.
    static ConnectionProfile fromUrl(const QString &url, QByteArray *password, RedisError *error = nullptr);

    // QSettings storage (group "profiles"), and the recent connections (display URLs, newest first). Without
    // settings, the application's own (QSettings()).
    static QList<ConnectionProfile> load();
    static QList<ConnectionProfile> load(QSettings &settings);
    static void save(const QList<ConnectionProfile> &profiles);
    static void save(const QList<ConnectionProfile> &profiles, QSettings &settings);
    // The console's saved connections wherever they are read from (the CLI's --profile): its organisation and
    // application name, whatever the reading program's own.
    static QList<ConnectionProfile> loadConsoleProfiles();
    static QStringList recent();
    static void addRecent(const QString &displayUrl);
};

// Where passwords are kept: the system keychain when there is one, else nowhere (asked for each time).
class SecretStore
{
public:
    virtual ~SecretStore() = default;
    virtual bool available() const = 0;
    virtual void read(const QString &profile, std::function<void(const QByteArray &secret)> done) = 0;
    virtual void write(const QString &profile, const QByteArray &secret) = 0;
};

// Keeps secrets for the life of the process only: for tests, and where no keychain backend exists.
class MemorySecretStore : public SecretStore
{
public:
    bool available() const override { return true; }
    void read(const QString &profile, std::function<void(const QByteArray &secret)> done) override
    {
        done(m_secrets.value(profile));
    }
    void write(const QString &profile, const QByteArray &secret) override { m_secrets.insert(profile, secret); }

private:
    QHash<QString, QByteArray> m_secrets;
};

} // namespace LockScope
