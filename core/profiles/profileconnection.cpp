#include "profiles/profileconnection.h"

#include <QCoreApplication>
#include <QStringList>

#include <memory>

namespace LockScope {

std::optional<ConnectionProfile> findProfile(
    const QList<ConnectionProfile> &profiles, const QString &name, RedisError *error)
{
    QStringList names;
    for (const ConnectionProfile &p : profiles) {
        if (p.name == name)
            return p;
        names << p.name;
    }
    if (error) {
        *error = RedisError(RedisError::Kind::InvalidArgument,
            names.isEmpty() ? QCoreApplication::translate(
                "LockScope::ConnectionProfile", "no saved connection is called \"%1\": the console has none saved")
                                  .arg(name)
                            : QCoreApplication::translate(
                                "LockScope::ConnectionProfile", "no saved connection is called \"%1\"; saved: %2")
                                  .arg(name, names.join(QStringLiteral(", "))));
    }
    return std::nullopt;
}

void readProfileSecrets(
    const ConnectionProfile &profile, SecretStore *store, std::function<void(const ProfileSecrets &secrets)> done)
{
    if (!store || !store->available()) {
        done({});
        return;
    }
    // The two reads answer in turn: the SSH one is asked for only once the Redis one has answered (a keychain that
    // turned out to have no backend is then not asked again).
    auto secrets = std::make_shared<ProfileSecrets>();
    const bool ssh = !profile.ssh.trimmed().isEmpty();
    const QString sshName = ConnectionProfile::sshSecretName(profile.name);
    store->read(profile.name, [store, secrets, ssh, sshName, done](const QByteArray &password) {
        secrets->password = password;
        if (!ssh || !store->available()) {
            done(*secrets);
            return;
        }
        store->read(sshName, [secrets, done](const QByteArray &sshPassword) {
            secrets->sshPassword = sshPassword;
            done(*secrets);
        });
    });
}

} // namespace LockScope
