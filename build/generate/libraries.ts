// @module The external libraries the generated application calls: their groups, classes and methods.

export interface LibClass {
  group: number;
  fullName: string;
  iface: boolean;
  end: boolean;
  methods: string[];
}
export const LIB_GROUPS: readonly [string, string][] = [
  ["jre", "Java Runtime"],
  ["spring", "Spring Framework"],
  ["commons", "Apache Commons"],
  ["jackson", "Jackson"],
  ["slf4j", "SLF4J"],
  ["jakarta", "Jakarta EE"],
  ["vendor", "Vendor SDKs"],
];
const LIB_SPEC: readonly [number, string, number, string][] = [
  // group, class fullName, flags (1 interface, 2 end point), methods "name(params)" separated by ";"
  [
    4,
    "org.slf4j.Logger",
    1,
    "info(String,Object...);debug(String,Object...);warn(String,Object...);error(String,Throwable);isDebugEnabled()",
  ],
  [
    0,
    "java.lang.String",
    0,
    "format(String,Object...);valueOf(Object);valueOf(int);equals(Object);isEmpty();trim();substring(int,int);toUpperCase();split(String);length();contains(CharSequence);startsWith(String);join(CharSequence,Iterable)",
  ],
  [
    0,
    "java.util.List",
    1,
    "add(Object);get(int);size();isEmpty();addAll(Collection);stream();contains(Object);of(Object...)",
  ],
  [
    0,
    "java.util.Map",
    1,
    "get(Object);put(Object,Object);containsKey(Object);entrySet();values();getOrDefault(Object,Object);computeIfAbsent(Object,Function)",
  ],
  [0, "java.util.Objects", 0, "equals(Object,Object);hash(Object...);requireNonNull(Object);isNull(Object)"],
  [
    2,
    "org.apache.commons.lang3.StringUtils",
    0,
    "isBlank(CharSequence);isNotBlank(CharSequence);isEmpty(CharSequence);defaultString(String);join(Iterable,String);leftPad(String,int,char);abbreviate(String,int)",
  ],
  [
    0,
    "java.util.Optional",
    0,
    "of(Object);ofNullable(Object);orElse(Object);isPresent();map(Function);orElseThrow(Supplier)",
  ],
  [
    0,
    "java.math.BigDecimal",
    0,
    "add(BigDecimal);multiply(BigDecimal);subtract(BigDecimal);setScale(int,RoundingMode);compareTo(BigDecimal);valueOf(long);divide(BigDecimal,RoundingMode)",
  ],
  [
    1,
    "org.springframework.jdbc.core.JdbcTemplate",
    2,
    "query(String,RowMapper,Object...);queryForObject(String,Class,Object...);update(String,Object...);batchUpdate(String,List)",
  ],
  [0, "java.lang.RuntimeException", 0, "getMessage();getCause()"],
  [0, "java.lang.Exception", 0, "getMessage()"],
  [
    0,
    "java.time.LocalDate",
    0,
    "now();of(int,int,int);parse(CharSequence);plusDays(long);isBefore(ChronoLocalDate);format(DateTimeFormatter)",
  ],
  [
    0,
    "java.util.stream.Stream",
    1,
    "map(Function);filter(Predicate);collect(Collector);forEach(Consumer);sorted(Comparator)",
  ],
  [0, "java.util.stream.Collectors", 0, "toList();toMap(Function,Function);groupingBy(Function);joining(CharSequence)"],
  [
    3,
    "com.fasterxml.jackson.databind.ObjectMapper",
    0,
    "readValue(String,Class);writeValueAsString(Object);readTree(String);convertValue(Object,Class)",
  ],
  [
    5,
    "jakarta.persistence.EntityManager",
    3,
    "persist(Object);merge(Object);find(Class,Object);createQuery(String);remove(Object);flush()",
  ],
  [1, "org.springframework.http.ResponseEntity", 0, "ok(Object);status(HttpStatus);notFound();badRequest()"],
  [1, "org.springframework.ui.Model", 1, "addAttribute(String,Object)"],
  [0, "java.lang.StringBuilder", 0, "append(String);append(int);append(Object);toString();setLength(int)"],
  [0, "java.lang.Integer", 0, "parseInt(String);valueOf(int);intValue()"],
  [0, "java.lang.Long", 0, "parseLong(String);valueOf(long)"],
  [0, "java.util.Set", 1, "add(Object);contains(Object);size()"],
  [0, "java.util.Collections", 0, "emptyList();unmodifiableList(List);sort(List)"],
  [0, "java.util.Arrays", 0, "asList(Object...);stream(Object[])"],
  [
    1,
    "org.springframework.web.client.RestTemplate",
    2,
    "getForObject(String,Class,Object...);postForEntity(String,Object,Class,Object...);exchange(String,HttpMethod,HttpEntity,Class,Object...)",
  ],
  [1, "org.springframework.jms.core.JmsTemplate", 2, "convertAndSend(String,Object);send(String,MessageCreator)"],
  [1, "org.springframework.kafka.core.KafkaTemplate", 2, "send(String,Object)"],
  [5, "jakarta.servlet.http.HttpServletRequest", 1, "getParameter(String);getSession();getAttribute(String)"],
  [5, "jakarta.servlet.http.HttpSession", 1, "getAttribute(String);setAttribute(String,Object);invalidate()"],
  [0, "java.time.LocalDateTime", 0, "now();parse(CharSequence)"],
  [
    0,
    "java.nio.file.Files",
    2,
    "readAllLines(Path);write(Path,byte[],OpenOption...);exists(Path);newBufferedReader(Path)",
  ],
  [0, "java.net.http.HttpClient", 2, "send(HttpRequest,BodyHandler);sendAsync(HttpRequest,BodyHandler)"],
  [0, "java.sql.PreparedStatement", 3, "executeQuery();executeUpdate();setString(int,String);setLong(int,long)"],
  [0, "java.sql.Connection", 1, "prepareStatement(String);commit();rollback();close()"],
  [0, "java.lang.Object", 0, "equals(Object);hashCode();toString();getClass()"],
  [0, "java.lang.System", 0, "currentTimeMillis();getProperty(String)"],
  [0, "java.lang.Math", 0, "max(int,int);min(int,int);abs(long);round(double)"],
  [2, "org.apache.commons.lang3.ObjectUtils", 0, "defaultIfNull(Object,Object);isEmpty(Object)"],
  [2, "org.apache.commons.collections4.CollectionUtils", 0, "isEmpty(Collection);isNotEmpty(Collection)"],
  [2, "org.apache.commons.io.IOUtils", 0, "toString(InputStream,Charset);closeQuietly(Closeable)"],
  [3, "com.fasterxml.jackson.databind.JsonNode", 0, "get(String);asText();path(String)"],
  [4, "org.slf4j.LoggerFactory", 0, "getLogger(Class)"],
  [1, "org.springframework.util.StringUtils", 0, "hasText(String);isEmpty(Object)"],
  [1, "org.springframework.transaction.support.TransactionTemplate", 0, "execute(TransactionCallback)"],
];
export const LIBS: LibClass[] = LIB_SPEC.map(([group, fullName, flags, methods]) => ({
  group,
  fullName,
  iface: (flags & 1) !== 0,
  end: (flags & 2) !== 0,
  methods: methods.split(";"),
}));
