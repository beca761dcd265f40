#pragma once

#include "profiles/connectionprofile.h"

#include <functional>
#include <optional>

namespace LockScope {

// A saved connection's passwords, as the keychain keeps them (empty: none kept, or no keychain).
struct ProfileSecrets
{
    QByteArray password; // Redis's, under the profile's name
    QByteArray sshPassword; // the SSH host's, under ConnectionProfile::sshSecretName()
};

// The saved connection called name (exactly, as the console lists it), or the error that says which names exist.
std::optional<ConnectionProfile> findProfile(
    const QList<ConnectionProfile> &profiles, const QString &name, RedisError *error);

// Reads a profile's passwords from store, the SSH one only when the profile goes through SSH. done runs exactly once:
// at once without a store (or one with no backend), else when the keychain answers (it answers asynchronously, so
// the caller's event loop must run).
void readProfileSecrets(
    const ConnectionProfile &profile, SecretStore *store, std::function<void(const ProfileSecrets &secrets)> done);

} // namespace LockScope
