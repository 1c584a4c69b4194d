package dev.proxypool.server.tls;

import java.nio.ByteBuffer;
import java.security.KeyManagementException;
import java.security.SecureRandom;
import java.util.List;
import java.util.function.BiFunction;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLContextSpi;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocketFactory;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;

/**
 * Server engines that refuse a client-initiated TLS renegotiation (TLS 1.2 and older; TLS 1.3 has none): a
 * client can otherwise make the server redo the expensive half of a handshake at will on one connection, and
 * a request then served on the renegotiated connection escapes what the first handshake established. The
 * JDK's own switch ({@code jdk.tls.rejectClientInitiatedRenegotiation}) is read once per process, at the
 * first server handshake, so it is also set ({@link ListenerTls}) but not relied on: each engine of the
 * REST listener ends its connection when a new handshake starts after the first one finished.
 */
final class NoRenegotiation {

    private NoRenegotiation() {}

    /** A context like {@code context} whose engines refuse renegotiation. */
    static SSLContext wrap(SSLContext context) {
        return new SSLContext(new Spi(context), context.getProvider(), context.getProtocol()) {};
    }

    private static final class Spi extends SSLContextSpi {
        private final SSLContext context;

        Spi(SSLContext context) {
            this.context = context;
        }

        @Override
        protected void engineInit(KeyManager[] km, TrustManager[] tm, SecureRandom sr) throws KeyManagementException {
            throw new KeyManagementException("already initialised");
        }

        @Override
        protected SSLSocketFactory engineGetSocketFactory() {
            return context.getSocketFactory();
        }

        @Override
        protected SSLServerSocketFactory engineGetServerSocketFactory() {
            return context.getServerSocketFactory();
        }

        @Override
        protected SSLEngine engineCreateSSLEngine() {
            return new Engine(context.createSSLEngine());
        }

        @Override
        protected SSLEngine engineCreateSSLEngine(String host, int port) {
            return new Engine(context.createSSLEngine(host, port));
        }

        @Override
        protected SSLSessionContext engineGetServerSessionContext() {
            return context.getServerSessionContext();
        }

        @Override
        protected SSLSessionContext engineGetClientSessionContext() {
            return context.getClientSessionContext();
        }

        @Override
        protected SSLParameters engineGetDefaultSSLParameters() {
            return context.getDefaultSSLParameters();
        }

        @Override
        protected SSLParameters engineGetSupportedSSLParameters() {
            return context.getSupportedSSLParameters();
        }
    }

    /** Delegates everything; a handshake starting again after the first one finished ends the engine. */
    private static final class Engine extends SSLEngine {
        private final SSLEngine e;
        private volatile boolean established;

        Engine(SSLEngine e) {
            super(e.getPeerHost(), e.getPeerPort());
            this.e = e;
        }

        private SSLEngineResult check(SSLEngineResult r) throws SSLException {
            SSLEngineResult.HandshakeStatus hs = r.getHandshakeStatus();
            if (hs == SSLEngineResult.HandshakeStatus.FINISHED) {
                established = true;
            } else if (established
                    && !e.getUseClientMode()
                    && hs != SSLEngineResult.HandshakeStatus.NOT_HANDSHAKING
                    && !"TLSv1.3".equals(e.getSession().getProtocol())) {
                e.closeOutbound();
                e.closeInbound();
                throw new SSLHandshakeException("client-initiated renegotiation refused");
            }
            return r;
        }

        @Override
        public SSLEngineResult wrap(ByteBuffer[] srcs, int offset, int length, ByteBuffer dst) throws SSLException {
            return check(e.wrap(srcs, offset, length, dst));
        }

        @Override
        public SSLEngineResult unwrap(ByteBuffer src, ByteBuffer[] dsts, int offset, int length) throws SSLException {
            return check(e.unwrap(src, dsts, offset, length));
        }

        @Override
        public Runnable getDelegatedTask() {
            return e.getDelegatedTask();
        }

        @Override
        public void closeInbound() throws SSLException {
            e.closeInbound();
        }

        @Override
        public boolean isInboundDone() {
            return e.isInboundDone();
        }

        @Override
        public void closeOutbound() {
            e.closeOutbound();
        }

        @Override
        public boolean isOutboundDone() {
            return e.isOutboundDone();
        }

        @Override
        public String[] getSupportedCipherSuites() {
            return e.getSupportedCipherSuites();
        }

        @Override
        public String[] getEnabledCipherSuites() {
            return e.getEnabledCipherSuites();
        }

        @Override
        public void setEnabledCipherSuites(String[] suites) {
            e.setEnabledCipherSuites(suites);
        }

        @Override
        public String[] getSupportedProtocols() {
            return e.getSupportedProtocols();
        }

        @Override
        public String[] getEnabledProtocols() {
            return e.getEnabledProtocols();
        }

        @Override
        public void setEnabledProtocols(String[] protocols) {
            e.setEnabledProtocols(protocols);
        }

        @Override
        public SSLSession getSession() {
            return e.getSession();
        }

        @Override
        public SSLSession getHandshakeSession() {
            return e.getHandshakeSession();
        }

        @Override
        public void beginHandshake() throws SSLException {
            if (established && !e.getUseClientMode()) {
                throw new SSLHandshakeException("renegotiation is off");
            }
            e.beginHandshake();
        }

        @Override
        public SSLEngineResult.HandshakeStatus getHandshakeStatus() {
            return e.getHandshakeStatus();
        }

        @Override
        public void setUseClientMode(boolean mode) {
            e.setUseClientMode(mode);
        }

        @Override
        public boolean getUseClientMode() {
            return e.getUseClientMode();
        }

        @Override
        public void setNeedClientAuth(boolean need) {
            e.setNeedClientAuth(need);
        }

        @Override
        public boolean getNeedClientAuth() {
            return e.getNeedClientAuth();
        }

        @Override
        public void setWantClientAuth(boolean want) {
            e.setWantClientAuth(want);
        }

        @Override
        public boolean getWantClientAuth() {
            return e.getWantClientAuth();
        }

        @Override
        public void setEnableSessionCreation(boolean flag) {
            e.setEnableSessionCreation(flag);
        }

        @Override
        public boolean getEnableSessionCreation() {
            return e.getEnableSessionCreation();
        }

        @Override
        public SSLParameters getSSLParameters() {
            return e.getSSLParameters();
        }

        @Override
        public void setSSLParameters(SSLParameters params) {
            e.setSSLParameters(params);
        }

        @Override
        public String getApplicationProtocol() {
            return e.getApplicationProtocol();
        }

        @Override
        public String getHandshakeApplicationProtocol() {
            return e.getHandshakeApplicationProtocol();
        }

        @Override
        public void setHandshakeApplicationProtocolSelector(BiFunction<SSLEngine, List<String>, String> selector) {
            e.setHandshakeApplicationProtocolSelector((engine, protocols) -> selector.apply(this, protocols));
        }

        @Override
        public BiFunction<SSLEngine, List<String>, String> getHandshakeApplicationProtocolSelector() {
            return e.getHandshakeApplicationProtocolSelector();
        }
    }
}
