package dev.proxypool.server.gateway;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.ChannelInputShutdownEvent;

/**
 * An upstream connection's events, on the client's loop, passed to the connection using it ({@code
 * owner}); a pooled idle connection has none: anything it reads is unexpected, and it closes.
 */
final class UpstreamHandler extends ChannelInboundHandlerAdapter {

    HttpProxyHandler owner;
    /** Set while the connection is being opened (TLS, the proxy handshake). */
    UpstreamConnector.Dialing dialing;

    UpstreamHandler(HttpProxyHandler owner) {
        this.owner = owner;
    }

    private HttpProxyHandler current(ChannelHandlerContext uctx) {
        HttpProxyHandler o = owner;
        return o != null && o.up == uctx.channel() ? o : null;
    }

    @Override
    public void channelRead(ChannelHandlerContext uctx, Object msg) {
        if (dialing != null) {
            dialing.read((ByteBuf) msg);
            return;
        }
        HttpProxyHandler o = current(uctx);
        if (o == null) {
            ((ByteBuf) msg).release();
            uctx.channel().close();
            return;
        }
        o.upRead((ByteBuf) msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext uctx) {
        HttpProxyHandler o = current(uctx);
        if (o != null) {
            o.ch.flush();
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext uctx) {
        HttpProxyHandler o = current(uctx);
        if (o != null && !o.clientEof && (o.state == HttpProxyHandler.State.TUNNEL || o.reqFramer != null)) {
            HttpProxyHandler.autoRead(o.ch, uctx.channel().isWritable());
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext uctx, Object evt) {
        if (evt instanceof ChannelInputShutdownEvent) {
            if (dialing != null) {
                dialing.closed();
                return;
            }
            HttpProxyHandler o = current(uctx);
            if (o != null) {
                o.upEof();
            } else {
                uctx.channel().close();
            }
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext uctx) {
        if (dialing != null) {
            dialing.closed();
            return;
        }
        HttpProxyHandler o = current(uctx);
        if (o != null) {
            o.upInactive();
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext uctx, Throwable cause) {
        if (dialing != null) {
            dialing.closed();
            return;
        }
        HttpProxyHandler o = current(uctx);
        if (o != null && o.state == HttpProxyHandler.State.TUNNEL && !o.upstreamEof) {
            o.upstreamBroke = true; // a reset by the upstream is reported against the proxy
        }
        uctx.channel().close();
    }
}
