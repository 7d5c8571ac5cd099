import { describe, expect, it } from "vitest";
import {
  ACCOUNT_REGEX,
  PASSWORD_REGEX,
  isIdNumber,
  optional,
  validateAccount,
  validateEditorRequired,
  validateFloat,
  validateIdNumber,
  validateMobile,
  validateName,
  validatePassword,
  validateRequired,
} from "../../src/shared/validation.ts";

const messageOf = (result: { message?: string } | null) => result?.message ?? null;

describe("account", () => {
  const WRONG = "A username is 3 to 15 letters, digits or underscores, starting with a letter";
  it.each([
    ["abc", null],
    ["a_1", null],
    ["Admin_2024", null],
    ["abcdefghijklmno", null], // 15
    ["ab", WRONG], // 2
    ["abcdefghijklmnop", WRONG], // 16
    ["1abc", WRONG],
    ["_abc", WRONG],
    ["ab-c", WRONG],
    ["ab c", WRONG],
    ["abc!", WRONG],
    ["张三丰", WRONG],
    ["", WRONG],
    [null, WRONG],
    [undefined, WRONG],
  ])("%j -> %j", (value, expected) => {
    expect(messageOf(validateAccount(value))).toBe(expected);
  });

  it("exports the regex", () => {
    expect(ACCOUNT_REGEX.test("admin")).toBe(true);
    expect(ACCOUNT_REGEX.test("9admin")).toBe(false);
  });
});

describe("password", () => {
  const WRONG = `A password is 6 to 32 characters, without & < > " or '`;
  it.each([
    ["123456", null],
    ["a".repeat(32), null],
    ["Pa ss-w0rd!#$%^*()", null],
    ["密码密码密码", null],
    ["12345", WRONG],
    ["a".repeat(33), WRONG],
    ["abc&defg", WRONG],
    ["abc<defg", WRONG],
    ["abc>defg", WRONG],
    ['abc"defg', WRONG],
    ["abc'defg", WRONG],
    ["abc\ndefg", WRONG],
    ["", WRONG],
    [123456, WRONG],
    [null, WRONG],
  ])("%j -> %j", (value, expected) => {
    expect(messageOf(validatePassword(value))).toBe(expected);
  });

  it("exports the regex", () => {
    expect(PASSWORD_REGEX.test("secret1")).toBe(true);
    expect(PASSWORD_REGEX.test("sec<ret1")).toBe(false);
  });
});

describe("mobile", () => {
  const WRONG = "Please enter the correct mobile number";
  it.each([
    ["13800138000", null],
    ["19912345678", null],
    ["15000000000", null],
    [13800138000, null],
    ["12800138000", WRONG],
    ["10800138000", WRONG],
    ["1380013800", WRONG],
    ["138001380000", WRONG],
    ["+8613800138000", WRONG],
    ["1380013800a", WRONG],
    ["", WRONG],
    [null, WRONG],
  ])("%j -> %j", (value, expected) => {
    expect(messageOf(validateMobile(value))).toBe(expected);
  });
});

describe("name", () => {
  const WRONG = "Please enter the correct name";
  it.each([
    ["张三", null],
    ["欧阳娜娜", null],
    ["阿依古丽·买买提", null],
    ["John Smith", null],
    ["José Álvarez", null],
    ["Li", null],
    ["a".repeat(30), null],
    ["张", WRONG],
    ["a".repeat(31), WRONG],
    ["John3", WRONG],
    ["John_Smith", WRONG],
    [" John", WRONG],
    ["John ", WRONG],
    ["·张三", WRONG],
    ["张三·", WRONG],
    ["Иван", WRONG],
    ["", WRONG],
    [null, WRONG],
  ])("%j -> %j", (value, expected) => {
    expect(messageOf(validateName(value))).toBe(expected);
  });
});

describe("ID number", () => {
  const WRONG = "Please enter the correct ID number";
  const today = new Date(2025, 5, 15);
  it.each([
    ["11010519491231002X", null],
    ["11010519491231002x", null],
    ["440304199001011233", null],
    ["310115200002290013", null], // 2000-02-29 exists
    ["320583198810163311", null],
    ["110105180001010010", null],
    ["110105194912310021", WRONG], // wrong check digit
    ["110105194912310020", WRONG],
    ["440304199001011234", WRONG],
    ["110105200102290010", WRONG], // 2001-02-29 does not exist
    // (every bad-date number above and below carries its correct check character)
    ["110105194913310021", WRONG], // month 13
    ["110105194912320025", WRONG], // day 32
    ["110105194900000024", WRONG], // month 0, day 0
    ["110105194902300020", WRONG], // February 30
    ["110105179912310016", WRONG], // before 1800
    ["51010120991231001X", WRONG], // born in the future
    ["11010519491231002", WRONG], // 17 characters
    ["11010519491231002XX", WRONG],
    ["1101051949123100X2", WRONG],
    ["110105491231002", WRONG], // old 15-digit number
    ["", WRONG],
    [null, WRONG],
    [11010519491231002, WRONG],
  ])("%j -> %j", (value, expected) => {
    expect(messageOf(validateIdNumber(value, today))).toBe(expected);
  });

  it("checks the date of birth against today", () => {
    expect(isIdNumber("510101202506150012", new Date(2025, 5, 15))).toBe(true);
    expect(isIdNumber("510101202506150012", new Date(2025, 5, 14))).toBe(false);
  });
});

describe("float", () => {
  const WRONG = "Please enter the correct floating point number";
  it.each([
    ["-1.5", null],
    ["3", null],
    ["0.25", null],
    ["+2.75", null],
    [".5", null],
    [-1.5, null],
    [0, null],
    ["abc", WRONG],
    ["1.2.3", WRONG],
    ["", WRONG],
    [" ", WRONG],
    ["1.", WRONG],
    ["1e3", WRONG],
    ["-", WRONG],
    [Number.NaN, WRONG],
    [Number.POSITIVE_INFINITY, WRONG],
    [null, WRONG],
  ])("%j -> %j", (value, expected) => {
    expect(messageOf(validateFloat(value))).toBe(expected);
  });
});

describe("required", () => {
  const WRONG = "Required";
  it.each([
    ["x", null],
    [0, null],
    [false, null],
    [["a"], null],
    [{}, null],
    ["", WRONG],
    ["   ", WRONG],
    [null, WRONG],
    [undefined, WRONG],
    [[], WRONG],
    [Number.NaN, WRONG],
  ])("%j -> %j", (value, expected) => {
    expect(messageOf(validateRequired(value))).toBe(expected);
  });
});

describe("editor required", () => {
  const WRONG = "Content cannot be empty";
  it.each([
    ["<p>Hello</p>", null],
    ["plain text", null],
    ['<p><img src="a.png"></p>', null],
    ['<video src="a.mp4"></video>', null],
    ["<p>&amp;</p>", null],
    ["<p><br></p>", WRONG],
    ["<p></p>", WRONG],
    ["   ", WRONG],
    ["", WRONG],
    ["<p> &nbsp; </p><p><br/></p>", WRONG],
    ["<div><span>\n</span></div>", WRONG],
    ["<!-- note --><p></p>", WRONG],
    [null, WRONG],
    [undefined, WRONG],
  ])("%j -> %j", (value, expected) => {
    expect(messageOf(validateEditorRequired(value))).toBe(expected);
  });
});

describe("optional", () => {
  it.each([
    ["", null],
    [null, null],
    [undefined, null],
    ["13800138000", null],
    ["123", "Please enter the correct mobile number"],
  ])("optional(mobile)(%j) -> %j", (value, expected) => {
    expect(messageOf(optional(validateMobile)(value))).toBe(expected);
  });
});

describe("descriptors", () => {
  it("are Lingui descriptors with an id and the English source", () => {
    expect(validateRequired("")).toEqual({ id: expect.any(String), message: "Required" });
    expect(validateAccount("1")?.id).not.toBe(validatePassword("1")?.id);
  });
});
