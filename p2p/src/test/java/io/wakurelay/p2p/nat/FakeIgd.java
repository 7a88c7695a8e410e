package io.wakurelay.p2p.nat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A UPnP Internet Gateway Device in this JVM, on 127.0.0.1: an SSDP responder (unicast: the test's "multicast
 * group"), the device description and a WANIPConnection:2 control URL that keeps its port mappings as miniupnpd does
 * (permission to map ports above 1023 only). What it answers can be changed to play a hostile or broken gateway.
 */
final class FakeIgd implements AutoCloseable {
    static final String SERVICE = "urn:schemas-upnp-org:service:WANIPConnection:2";
    private static final Pattern ARG = Pattern.compile("<(New\\w+)>([^<]*)</\\1>");

    /** A mapping as the gateway holds it. */
    record Entry(String protocol, int externalPort, String client, int internalPort, String description, long lease) {
    }

    final Map<String, Entry> mappings = new ConcurrentHashMap<>();
    final List<String> actions = new CopyOnWriteArrayList<>();
    volatile String externalIp = "100.128.0.1";
    /** UPnP error AddPortMapping answers with, or 0. */
    volatile int refuseAdd;
    /** The device description served; null: the normal one. */
    volatile byte[] description;
    /** The LOCATION SSDP answers name; null: this gateway's description. */
    volatile String location;

    private final HttpServer http;
    private final DatagramSocket ssdp;
    private final Thread responder;

    FakeIgd() throws IOException {
        http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        http.createContext("/rootDesc.xml", this::describe);
        http.createContext("/ctl/IPConn", this::control);
        http.start();
        ssdp = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        responder = new Thread(this::answerSearches, "fake-igd-ssdp");
        responder.setDaemon(true);
        responder.start();
    }

    InetSocketAddress ssdpAddress() {
        return (InetSocketAddress) ssdp.getLocalSocketAddress();
    }

    String base() {
        return "http://127.0.0.1:" + http.getAddress().getPort();
    }

    private void answerSearches() {
        byte[] buffer = new byte[2048];
        while (!ssdp.isClosed()) {
            try {
                DatagramPacket p = new DatagramPacket(buffer, buffer.length);
                ssdp.receive(p);
                String search = new String(p.getData(), 0, p.getLength(), StandardCharsets.US_ASCII);
                if (!search.startsWith("M-SEARCH") || !search.contains("InternetGatewayDevice:1")) {
                    continue;
                }
                String where = location != null ? location : base() + "/rootDesc.xml";
                byte[] answer = ("HTTP/1.1 200 OK\r\nCACHE-CONTROL: max-age=120\r\nST: urn:schemas-upnp-org:device:"
                        + "InternetGatewayDevice:1\r\nEXT:\r\nSERVER: fake UPnP/1.1\r\nLOCATION: " + where + "\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII);
                ssdp.send(new DatagramPacket(answer, answer.length, p.getSocketAddress()));
            } catch (IOException e) {
                return;
            }
        }
    }

    static byte[] normalDescription() {
        return ("<?xml version=\"1.0\"?><root xmlns=\"urn:schemas-upnp-org:device-1-0\"><device><deviceType>"
                + "urn:schemas-upnp-org:device:InternetGatewayDevice:2</deviceType><deviceList><device><deviceType>"
                + "urn:schemas-upnp-org:device:WANDevice:2</deviceType><serviceList><service><serviceType>"
                + "urn:schemas-upnp-org:service:WANCommonInterfaceConfig:1</serviceType><controlURL>/ctl/CmnIfCfg"
                + "</controlURL></service></serviceList><deviceList><device><deviceType>"
                + "urn:schemas-upnp-org:device:WANConnectionDevice:2</deviceType><serviceList><service><serviceType>"
                + SERVICE + "</serviceType><serviceId>urn:upnp-org:serviceId:WANIPConn1</serviceId><controlURL>"
                + "/ctl/IPConn</controlURL></service></serviceList></device></deviceList></device></deviceList>"
                + "</device></root>").getBytes(StandardCharsets.UTF_8);
    }

    private void describe(HttpExchange exchange) throws IOException {
        byte[] body = description != null ? description : normalDescription();
        reply(exchange, 200, body);
    }

    private void control(HttpExchange exchange) throws IOException {
        String soapAction = exchange.getRequestHeaders().getFirst("SOAPAction");
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        String action = soapAction.replace("\"", "").substring(soapAction.replace("\"", "").indexOf('#') + 1);
        actions.add(action);
        Map<String, String> args = new ConcurrentHashMap<>();
        Matcher m = ARG.matcher(body);
        while (m.find()) {
            args.put(m.group(1), m.group(2));
        }
        String key = args.get("NewProtocol") + " " + args.get("NewExternalPort");
        switch (action) {
            case "GetExternalIPAddress" -> ok(exchange, action, "<NewExternalIPAddress>" + externalIp
                    + "</NewExternalIPAddress>");
            case "AddPortMapping" -> {
                int port = Integer.parseInt(args.get("NewExternalPort"));
                Entry existing = mappings.get(key);
                if (refuseAdd != 0) {
                    fault(exchange, refuseAdd, "refused");
                } else if (port < 1024) {
                    fault(exchange, 606, "Action not authorized");
                } else if (existing != null && !existing.client().equals(args.get("NewInternalClient"))) {
                    fault(exchange, 718, "ConflictInMappingEntry");
                } else {
                    mappings.put(key, new Entry(args.get("NewProtocol"), port, args.get("NewInternalClient"),
                            Integer.parseInt(args.get("NewInternalPort")), args.get("NewPortMappingDescription"),
                            Long.parseLong(args.get("NewLeaseDuration"))));
                    ok(exchange, action, "");
                }
            }
            case "GetSpecificPortMappingEntry" -> {
                Entry e = mappings.get(key);
                if (e == null) {
                    fault(exchange, 714, "NoSuchEntryInArray");
                } else {
                    ok(exchange, action, "<NewInternalPort>" + e.internalPort() + "</NewInternalPort><NewInternalClient>"
                            + e.client() + "</NewInternalClient><NewEnabled>1</NewEnabled><NewPortMappingDescription>"
                            + e.description() + "</NewPortMappingDescription><NewLeaseDuration>" + e.lease()
                            + "</NewLeaseDuration>");
                }
            }
            case "DeletePortMapping" -> {
                if (mappings.remove(key) == null) {
                    fault(exchange, 714, "NoSuchEntryInArray");
                } else {
                    ok(exchange, action, "");
                }
            }
            default -> fault(exchange, 401, "Invalid Action");
        }
    }

    private static void ok(HttpExchange exchange, String action, String out) throws IOException {
        reply(exchange, 200, ("<?xml version=\"1.0\"?><s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\""
                + "><s:Body><u:" + action + "Response xmlns:u=\"" + SERVICE + "\">" + out + "</u:" + action
                + "Response></s:Body></s:Envelope>").getBytes(StandardCharsets.UTF_8));
    }

    private static void fault(HttpExchange exchange, int code, String text) throws IOException {
        reply(exchange, 500, ("<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body><s:Fault>"
                + "<faultcode>s:Client</faultcode><faultstring>UPnPError</faultstring><detail><UPnPError xmlns="
                + "\"urn:schemas-upnp-org:control-1-0\"><errorCode>" + code + "</errorCode><errorDescription>" + text
                + "</errorDescription></UPnPError></detail></s:Fault></s:Body></s:Envelope>")
                .getBytes(StandardCharsets.UTF_8));
    }

    private static void reply(HttpExchange exchange, int status, byte[] body) throws IOException {
        exchange.getResponseHeaders().add("Content-Type", "text/xml; charset=\"utf-8\"");
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    List<Entry> entries() {
        return new ArrayList<>(mappings.values());
    }

    @Override
    public void close() {
        ssdp.close();
        http.stop(0);
        try {
            responder.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
