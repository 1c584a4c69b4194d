/**
 * The normalized vocabulary every module shares: {@link dev.proxypool.core.model.Proxy}, its dedupe
 * identity {@link dev.proxypool.core.model.ProxyKey}, opaque {@link dev.proxypool.core.model.ProxyIds},
 * {@link dev.proxypool.core.model.Labels} and selectors, credential references and address masking
 * for logs. All types are immutable values validated on construction. They carry no runtime facts
 * (health, in-flight counts live in the runtime package), no vendor fields and never a secret: a
 * {@link dev.proxypool.core.model.CredentialRef} names credentials, it does not hold them.
 */
package dev.proxypool.core.model;
