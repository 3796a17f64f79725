// Generated from lib/protocols/anthropic-messages/schema.ts (messagesBodySchema) by scripts/generate-validators.cjs. Do not edit:
// change the schema, then run `node scripts/generate-validators.cjs`.
// @ts-nocheck (ajv writes untyped JavaScript; the export below carries the type)
import type { GeneratedValidator } from '../shared/validate';
import { ucs2length as func2 } from '../shared/validator-runtime';

export const validate: GeneratedValidator = validate21;
const schema6 = {"type":"object","required":["model","max_tokens","messages"],"properties":{"model":{"type":"string","minLength":1},"max_tokens":{"type":"integer","minimum":1},"messages":{"type":"array","items":{"type":"object","required":["role","content"],"properties":{"role":{"enum":["user","assistant","system"]},"content":{"type":["string","array"],"items":{"type":"object","required":["type"],"properties":{"type":{"type":"string"}}}}}}},"system":{"type":["string","array","null"],"items":{"type":"object","required":["type","text"],"properties":{"type":{"const":"text"},"text":{"type":"string"}}}},"temperature":{"type":["number","null"],"minimum":0,"maximum":1},"top_p":{"type":["number","null"],"minimum":0,"maximum":1},"top_k":{"type":["integer","null"],"minimum":0},"stop_sequences":{"type":["array","null"],"items":{"type":"string"}},"stream":{"type":["boolean","null"]},"tools":{"type":["array","null"],"items":{"type":"object","properties":{"type":{"type":["string","null"]},"name":{"type":"string","minLength":1},"description":{"type":"string"},"input_schema":{"type":"object"},"strict":{"type":"boolean"}}}},"tool_choice":{"type":["object","null"],"required":["type"],"properties":{"type":{"enum":["auto","any","tool","none"]},"name":{"type":"string","minLength":1},"disable_parallel_tool_use":{"type":["boolean","null"]}}},"thinking":{"type":["object","null"],"required":["type"],"properties":{"type":{"enum":["enabled","disabled","adaptive"]},"budget_tokens":{"type":"integer","minimum":1024},"display":{"type":["string","null"]}}},"output_config":{"type":["object","null"],"properties":{"effort":{"enum":["low","medium","high","xhigh","max",null]},"format":{"type":["object","null"],"required":["type","schema"],"properties":{"type":{"const":"json_schema"},"schema":{"type":"object"}}}}},"metadata":{"type":["object","null"],"properties":{"user_id":{"type":["string","null"]}}}}};

function validate21(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(errors === 0){
if(data && typeof data == "object" && !Array.isArray(data)){
let missing0;
if((((data.model === undefined) && (missing0 = "model")) || ((data.max_tokens === undefined) && (missing0 = "max_tokens"))) || ((data.messages === undefined) && (missing0 = "messages"))){
validate21.errors = [{instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: missing0},message:"must have required property '"+missing0+"'"}];
return false;
}
else {
if(data.model !== undefined){
let data0 = data.model;
const _errs1 = errors;
if(errors === _errs1){
if(typeof data0 === "string"){
if(func2(data0) < 1){
validate21.errors = [{instancePath:instancePath+"/model",schemaPath:"#/properties/model/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"}];
return false;
}
}
else {
validate21.errors = [{instancePath:instancePath+"/model",schemaPath:"#/properties/model/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid0 = _errs1 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.max_tokens !== undefined){
let data1 = data.max_tokens;
const _errs3 = errors;
if(!((typeof data1 == "number") && (!(data1 % 1) && !isNaN(data1)))){
validate21.errors = [{instancePath:instancePath+"/max_tokens",schemaPath:"#/properties/max_tokens/type",keyword:"type",params:{type: "integer"},message:"must be integer"}];
return false;
}
if(errors === _errs3){
if(typeof data1 == "number"){
if(data1 < 1 || isNaN(data1)){
validate21.errors = [{instancePath:instancePath+"/max_tokens",schemaPath:"#/properties/max_tokens/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"}];
return false;
}
}
}
var valid0 = _errs3 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.messages !== undefined){
let data2 = data.messages;
const _errs5 = errors;
if(errors === _errs5){
if(Array.isArray(data2)){
var valid1 = true;
const len0 = data2.length;
for(let i0=0; i0<len0; i0++){
let data3 = data2[i0];
const _errs7 = errors;
if(errors === _errs7){
if(data3 && typeof data3 == "object" && !Array.isArray(data3)){
let missing1;
if(((data3.role === undefined) && (missing1 = "role")) || ((data3.content === undefined) && (missing1 = "content"))){
validate21.errors = [{instancePath:instancePath+"/messages/" + i0,schemaPath:"#/properties/messages/items/required",keyword:"required",params:{missingProperty: missing1},message:"must have required property '"+missing1+"'"}];
return false;
}
else {
if(data3.role !== undefined){
let data4 = data3.role;
const _errs9 = errors;
if(!(((data4 === "user") || (data4 === "assistant")) || (data4 === "system"))){
validate21.errors = [{instancePath:instancePath+"/messages/" + i0+"/role",schemaPath:"#/properties/messages/items/properties/role/enum",keyword:"enum",params:{allowedValues: schema6.properties.messages.items.properties.role.enum},message:"must be equal to one of the allowed values"}];
return false;
}
var valid2 = _errs9 === errors;
}
else {
var valid2 = true;
}
if(valid2){
if(data3.content !== undefined){
let data5 = data3.content;
const _errs10 = errors;
if((typeof data5 !== "string") && (!(Array.isArray(data5)))){
validate21.errors = [{instancePath:instancePath+"/messages/" + i0+"/content",schemaPath:"#/properties/messages/items/properties/content/type",keyword:"type",params:{type: schema6.properties.messages.items.properties.content.type},message:"must be string,array"}];
return false;
}
if(errors === _errs10){
if(Array.isArray(data5)){
var valid3 = true;
const len1 = data5.length;
for(let i1=0; i1<len1; i1++){
let data6 = data5[i1];
const _errs12 = errors;
if(errors === _errs12){
if(data6 && typeof data6 == "object" && !Array.isArray(data6)){
let missing2;
if((data6.type === undefined) && (missing2 = "type")){
validate21.errors = [{instancePath:instancePath+"/messages/" + i0+"/content/" + i1,schemaPath:"#/properties/messages/items/properties/content/items/required",keyword:"required",params:{missingProperty: missing2},message:"must have required property '"+missing2+"'"}];
return false;
}
else {
if(data6.type !== undefined){
if(typeof data6.type !== "string"){
validate21.errors = [{instancePath:instancePath+"/messages/" + i0+"/content/" + i1+"/type",schemaPath:"#/properties/messages/items/properties/content/items/properties/type/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
}
}
else {
validate21.errors = [{instancePath:instancePath+"/messages/" + i0+"/content/" + i1,schemaPath:"#/properties/messages/items/properties/content/items/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid3 = _errs12 === errors;
if(!valid3){
break;
}
}
}
}
var valid2 = _errs10 === errors;
}
else {
var valid2 = true;
}
}
}
}
else {
validate21.errors = [{instancePath:instancePath+"/messages/" + i0,schemaPath:"#/properties/messages/items/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid1 = _errs7 === errors;
if(!valid1){
break;
}
}
}
else {
validate21.errors = [{instancePath:instancePath+"/messages",schemaPath:"#/properties/messages/type",keyword:"type",params:{type: "array"},message:"must be array"}];
return false;
}
}
var valid0 = _errs5 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.system !== undefined){
let data8 = data.system;
const _errs16 = errors;
if(((typeof data8 !== "string") && (!(Array.isArray(data8)))) && (data8 !== null)){
validate21.errors = [{instancePath:instancePath+"/system",schemaPath:"#/properties/system/type",keyword:"type",params:{type: schema6.properties.system.type},message:"must be string,array,null"}];
return false;
}
if(errors === _errs16){
if(Array.isArray(data8)){
var valid5 = true;
const len2 = data8.length;
for(let i2=0; i2<len2; i2++){
let data9 = data8[i2];
const _errs18 = errors;
if(errors === _errs18){
if(data9 && typeof data9 == "object" && !Array.isArray(data9)){
let missing3;
if(((data9.type === undefined) && (missing3 = "type")) || ((data9.text === undefined) && (missing3 = "text"))){
validate21.errors = [{instancePath:instancePath+"/system/" + i2,schemaPath:"#/properties/system/items/required",keyword:"required",params:{missingProperty: missing3},message:"must have required property '"+missing3+"'"}];
return false;
}
else {
if(data9.type !== undefined){
const _errs20 = errors;
if("text" !== data9.type){
validate21.errors = [{instancePath:instancePath+"/system/" + i2+"/type",schemaPath:"#/properties/system/items/properties/type/const",keyword:"const",params:{allowedValue: "text"},message:"must be equal to constant"}];
return false;
}
var valid6 = _errs20 === errors;
}
else {
var valid6 = true;
}
if(valid6){
if(data9.text !== undefined){
const _errs21 = errors;
if(typeof data9.text !== "string"){
validate21.errors = [{instancePath:instancePath+"/system/" + i2+"/text",schemaPath:"#/properties/system/items/properties/text/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid6 = _errs21 === errors;
}
else {
var valid6 = true;
}
}
}
}
else {
validate21.errors = [{instancePath:instancePath+"/system/" + i2,schemaPath:"#/properties/system/items/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid5 = _errs18 === errors;
if(!valid5){
break;
}
}
}
}
var valid0 = _errs16 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.temperature !== undefined){
let data12 = data.temperature;
const _errs23 = errors;
if((!(typeof data12 == "number")) && (data12 !== null)){
validate21.errors = [{instancePath:instancePath+"/temperature",schemaPath:"#/properties/temperature/type",keyword:"type",params:{type: schema6.properties.temperature.type},message:"must be number,null"}];
return false;
}
if(errors === _errs23){
if(typeof data12 == "number"){
if(data12 > 1 || isNaN(data12)){
validate21.errors = [{instancePath:instancePath+"/temperature",schemaPath:"#/properties/temperature/maximum",keyword:"maximum",params:{comparison: "<=", limit: 1},message:"must be <= 1"}];
return false;
}
else {
if(data12 < 0 || isNaN(data12)){
validate21.errors = [{instancePath:instancePath+"/temperature",schemaPath:"#/properties/temperature/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0"}];
return false;
}
}
}
}
var valid0 = _errs23 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.top_p !== undefined){
let data13 = data.top_p;
const _errs25 = errors;
if((!(typeof data13 == "number")) && (data13 !== null)){
validate21.errors = [{instancePath:instancePath+"/top_p",schemaPath:"#/properties/top_p/type",keyword:"type",params:{type: schema6.properties.top_p.type},message:"must be number,null"}];
return false;
}
if(errors === _errs25){
if(typeof data13 == "number"){
if(data13 > 1 || isNaN(data13)){
validate21.errors = [{instancePath:instancePath+"/top_p",schemaPath:"#/properties/top_p/maximum",keyword:"maximum",params:{comparison: "<=", limit: 1},message:"must be <= 1"}];
return false;
}
else {
if(data13 < 0 || isNaN(data13)){
validate21.errors = [{instancePath:instancePath+"/top_p",schemaPath:"#/properties/top_p/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0"}];
return false;
}
}
}
}
var valid0 = _errs25 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.top_k !== undefined){
let data14 = data.top_k;
const _errs27 = errors;
if((!((typeof data14 == "number") && (!(data14 % 1) && !isNaN(data14)))) && (data14 !== null)){
validate21.errors = [{instancePath:instancePath+"/top_k",schemaPath:"#/properties/top_k/type",keyword:"type",params:{type: schema6.properties.top_k.type},message:"must be integer,null"}];
return false;
}
if(errors === _errs27){
if(typeof data14 == "number"){
if(data14 < 0 || isNaN(data14)){
validate21.errors = [{instancePath:instancePath+"/top_k",schemaPath:"#/properties/top_k/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0"}];
return false;
}
}
}
var valid0 = _errs27 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.stop_sequences !== undefined){
let data15 = data.stop_sequences;
const _errs29 = errors;
if((!(Array.isArray(data15))) && (data15 !== null)){
validate21.errors = [{instancePath:instancePath+"/stop_sequences",schemaPath:"#/properties/stop_sequences/type",keyword:"type",params:{type: schema6.properties.stop_sequences.type},message:"must be array,null"}];
return false;
}
if(errors === _errs29){
if(Array.isArray(data15)){
var valid7 = true;
const len3 = data15.length;
for(let i3=0; i3<len3; i3++){
const _errs31 = errors;
if(typeof data15[i3] !== "string"){
validate21.errors = [{instancePath:instancePath+"/stop_sequences/" + i3,schemaPath:"#/properties/stop_sequences/items/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid7 = _errs31 === errors;
if(!valid7){
break;
}
}
}
}
var valid0 = _errs29 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.stream !== undefined){
let data17 = data.stream;
const _errs33 = errors;
if((typeof data17 !== "boolean") && (data17 !== null)){
validate21.errors = [{instancePath:instancePath+"/stream",schemaPath:"#/properties/stream/type",keyword:"type",params:{type: schema6.properties.stream.type},message:"must be boolean,null"}];
return false;
}
var valid0 = _errs33 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.tools !== undefined){
let data18 = data.tools;
const _errs35 = errors;
if((!(Array.isArray(data18))) && (data18 !== null)){
validate21.errors = [{instancePath:instancePath+"/tools",schemaPath:"#/properties/tools/type",keyword:"type",params:{type: schema6.properties.tools.type},message:"must be array,null"}];
return false;
}
if(errors === _errs35){
if(Array.isArray(data18)){
var valid8 = true;
const len4 = data18.length;
for(let i4=0; i4<len4; i4++){
let data19 = data18[i4];
const _errs37 = errors;
if(errors === _errs37){
if(data19 && typeof data19 == "object" && !Array.isArray(data19)){
if(data19.type !== undefined){
let data20 = data19.type;
const _errs39 = errors;
if((typeof data20 !== "string") && (data20 !== null)){
validate21.errors = [{instancePath:instancePath+"/tools/" + i4+"/type",schemaPath:"#/properties/tools/items/properties/type/type",keyword:"type",params:{type: schema6.properties.tools.items.properties.type.type},message:"must be string,null"}];
return false;
}
var valid9 = _errs39 === errors;
}
else {
var valid9 = true;
}
if(valid9){
if(data19.name !== undefined){
let data21 = data19.name;
const _errs41 = errors;
if(errors === _errs41){
if(typeof data21 === "string"){
if(func2(data21) < 1){
validate21.errors = [{instancePath:instancePath+"/tools/" + i4+"/name",schemaPath:"#/properties/tools/items/properties/name/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"}];
return false;
}
}
else {
validate21.errors = [{instancePath:instancePath+"/tools/" + i4+"/name",schemaPath:"#/properties/tools/items/properties/name/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid9 = _errs41 === errors;
}
else {
var valid9 = true;
}
if(valid9){
if(data19.description !== undefined){
const _errs43 = errors;
if(typeof data19.description !== "string"){
validate21.errors = [{instancePath:instancePath+"/tools/" + i4+"/description",schemaPath:"#/properties/tools/items/properties/description/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid9 = _errs43 === errors;
}
else {
var valid9 = true;
}
if(valid9){
if(data19.input_schema !== undefined){
let data23 = data19.input_schema;
const _errs45 = errors;
if(!(data23 && typeof data23 == "object" && !Array.isArray(data23))){
validate21.errors = [{instancePath:instancePath+"/tools/" + i4+"/input_schema",schemaPath:"#/properties/tools/items/properties/input_schema/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
var valid9 = _errs45 === errors;
}
else {
var valid9 = true;
}
if(valid9){
if(data19.strict !== undefined){
const _errs47 = errors;
if(typeof data19.strict !== "boolean"){
validate21.errors = [{instancePath:instancePath+"/tools/" + i4+"/strict",schemaPath:"#/properties/tools/items/properties/strict/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"}];
return false;
}
var valid9 = _errs47 === errors;
}
else {
var valid9 = true;
}
}
}
}
}
}
else {
validate21.errors = [{instancePath:instancePath+"/tools/" + i4,schemaPath:"#/properties/tools/items/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid8 = _errs37 === errors;
if(!valid8){
break;
}
}
}
}
var valid0 = _errs35 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.tool_choice !== undefined){
let data25 = data.tool_choice;
const _errs49 = errors;
if((!(data25 && typeof data25 == "object" && !Array.isArray(data25))) && (data25 !== null)){
validate21.errors = [{instancePath:instancePath+"/tool_choice",schemaPath:"#/properties/tool_choice/type",keyword:"type",params:{type: schema6.properties.tool_choice.type},message:"must be object,null"}];
return false;
}
if(errors === _errs49){
if(data25 && typeof data25 == "object" && !Array.isArray(data25)){
let missing4;
if((data25.type === undefined) && (missing4 = "type")){
validate21.errors = [{instancePath:instancePath+"/tool_choice",schemaPath:"#/properties/tool_choice/required",keyword:"required",params:{missingProperty: missing4},message:"must have required property '"+missing4+"'"}];
return false;
}
else {
if(data25.type !== undefined){
let data26 = data25.type;
const _errs51 = errors;
if(!((((data26 === "auto") || (data26 === "any")) || (data26 === "tool")) || (data26 === "none"))){
validate21.errors = [{instancePath:instancePath+"/tool_choice/type",schemaPath:"#/properties/tool_choice/properties/type/enum",keyword:"enum",params:{allowedValues: schema6.properties.tool_choice.properties.type.enum},message:"must be equal to one of the allowed values"}];
return false;
}
var valid10 = _errs51 === errors;
}
else {
var valid10 = true;
}
if(valid10){
if(data25.name !== undefined){
let data27 = data25.name;
const _errs52 = errors;
if(errors === _errs52){
if(typeof data27 === "string"){
if(func2(data27) < 1){
validate21.errors = [{instancePath:instancePath+"/tool_choice/name",schemaPath:"#/properties/tool_choice/properties/name/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"}];
return false;
}
}
else {
validate21.errors = [{instancePath:instancePath+"/tool_choice/name",schemaPath:"#/properties/tool_choice/properties/name/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid10 = _errs52 === errors;
}
else {
var valid10 = true;
}
if(valid10){
if(data25.disable_parallel_tool_use !== undefined){
let data28 = data25.disable_parallel_tool_use;
const _errs54 = errors;
if((typeof data28 !== "boolean") && (data28 !== null)){
validate21.errors = [{instancePath:instancePath+"/tool_choice/disable_parallel_tool_use",schemaPath:"#/properties/tool_choice/properties/disable_parallel_tool_use/type",keyword:"type",params:{type: schema6.properties.tool_choice.properties.disable_parallel_tool_use.type},message:"must be boolean,null"}];
return false;
}
var valid10 = _errs54 === errors;
}
else {
var valid10 = true;
}
}
}
}
}
}
var valid0 = _errs49 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.thinking !== undefined){
let data29 = data.thinking;
const _errs56 = errors;
if((!(data29 && typeof data29 == "object" && !Array.isArray(data29))) && (data29 !== null)){
validate21.errors = [{instancePath:instancePath+"/thinking",schemaPath:"#/properties/thinking/type",keyword:"type",params:{type: schema6.properties.thinking.type},message:"must be object,null"}];
return false;
}
if(errors === _errs56){
if(data29 && typeof data29 == "object" && !Array.isArray(data29)){
let missing5;
if((data29.type === undefined) && (missing5 = "type")){
validate21.errors = [{instancePath:instancePath+"/thinking",schemaPath:"#/properties/thinking/required",keyword:"required",params:{missingProperty: missing5},message:"must have required property '"+missing5+"'"}];
return false;
}
else {
if(data29.type !== undefined){
let data30 = data29.type;
const _errs58 = errors;
if(!(((data30 === "enabled") || (data30 === "disabled")) || (data30 === "adaptive"))){
validate21.errors = [{instancePath:instancePath+"/thinking/type",schemaPath:"#/properties/thinking/properties/type/enum",keyword:"enum",params:{allowedValues: schema6.properties.thinking.properties.type.enum},message:"must be equal to one of the allowed values"}];
return false;
}
var valid11 = _errs58 === errors;
}
else {
var valid11 = true;
}
if(valid11){
if(data29.budget_tokens !== undefined){
let data31 = data29.budget_tokens;
const _errs59 = errors;
if(!((typeof data31 == "number") && (!(data31 % 1) && !isNaN(data31)))){
validate21.errors = [{instancePath:instancePath+"/thinking/budget_tokens",schemaPath:"#/properties/thinking/properties/budget_tokens/type",keyword:"type",params:{type: "integer"},message:"must be integer"}];
return false;
}
if(errors === _errs59){
if(typeof data31 == "number"){
if(data31 < 1024 || isNaN(data31)){
validate21.errors = [{instancePath:instancePath+"/thinking/budget_tokens",schemaPath:"#/properties/thinking/properties/budget_tokens/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1024},message:"must be >= 1024"}];
return false;
}
}
}
var valid11 = _errs59 === errors;
}
else {
var valid11 = true;
}
if(valid11){
if(data29.display !== undefined){
let data32 = data29.display;
const _errs61 = errors;
if((typeof data32 !== "string") && (data32 !== null)){
validate21.errors = [{instancePath:instancePath+"/thinking/display",schemaPath:"#/properties/thinking/properties/display/type",keyword:"type",params:{type: schema6.properties.thinking.properties.display.type},message:"must be string,null"}];
return false;
}
var valid11 = _errs61 === errors;
}
else {
var valid11 = true;
}
}
}
}
}
}
var valid0 = _errs56 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.output_config !== undefined){
let data33 = data.output_config;
const _errs63 = errors;
if((!(data33 && typeof data33 == "object" && !Array.isArray(data33))) && (data33 !== null)){
validate21.errors = [{instancePath:instancePath+"/output_config",schemaPath:"#/properties/output_config/type",keyword:"type",params:{type: schema6.properties.output_config.type},message:"must be object,null"}];
return false;
}
if(errors === _errs63){
if(data33 && typeof data33 == "object" && !Array.isArray(data33)){
if(data33.effort !== undefined){
let data34 = data33.effort;
const _errs65 = errors;
if(!((((((data34 === "low") || (data34 === "medium")) || (data34 === "high")) || (data34 === "xhigh")) || (data34 === "max")) || (data34 === null))){
validate21.errors = [{instancePath:instancePath+"/output_config/effort",schemaPath:"#/properties/output_config/properties/effort/enum",keyword:"enum",params:{allowedValues: schema6.properties.output_config.properties.effort.enum},message:"must be equal to one of the allowed values"}];
return false;
}
var valid12 = _errs65 === errors;
}
else {
var valid12 = true;
}
if(valid12){
if(data33.format !== undefined){
let data35 = data33.format;
const _errs66 = errors;
if((!(data35 && typeof data35 == "object" && !Array.isArray(data35))) && (data35 !== null)){
validate21.errors = [{instancePath:instancePath+"/output_config/format",schemaPath:"#/properties/output_config/properties/format/type",keyword:"type",params:{type: schema6.properties.output_config.properties.format.type},message:"must be object,null"}];
return false;
}
if(errors === _errs66){
if(data35 && typeof data35 == "object" && !Array.isArray(data35)){
let missing6;
if(((data35.type === undefined) && (missing6 = "type")) || ((data35.schema === undefined) && (missing6 = "schema"))){
validate21.errors = [{instancePath:instancePath+"/output_config/format",schemaPath:"#/properties/output_config/properties/format/required",keyword:"required",params:{missingProperty: missing6},message:"must have required property '"+missing6+"'"}];
return false;
}
else {
if(data35.type !== undefined){
const _errs68 = errors;
if("json_schema" !== data35.type){
validate21.errors = [{instancePath:instancePath+"/output_config/format/type",schemaPath:"#/properties/output_config/properties/format/properties/type/const",keyword:"const",params:{allowedValue: "json_schema"},message:"must be equal to constant"}];
return false;
}
var valid13 = _errs68 === errors;
}
else {
var valid13 = true;
}
if(valid13){
if(data35.schema !== undefined){
let data37 = data35.schema;
const _errs69 = errors;
if(!(data37 && typeof data37 == "object" && !Array.isArray(data37))){
validate21.errors = [{instancePath:instancePath+"/output_config/format/schema",schemaPath:"#/properties/output_config/properties/format/properties/schema/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
var valid13 = _errs69 === errors;
}
else {
var valid13 = true;
}
}
}
}
}
var valid12 = _errs66 === errors;
}
else {
var valid12 = true;
}
}
}
}
var valid0 = _errs63 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.metadata !== undefined){
let data38 = data.metadata;
const _errs71 = errors;
if((!(data38 && typeof data38 == "object" && !Array.isArray(data38))) && (data38 !== null)){
validate21.errors = [{instancePath:instancePath+"/metadata",schemaPath:"#/properties/metadata/type",keyword:"type",params:{type: schema6.properties.metadata.type},message:"must be object,null"}];
return false;
}
if(errors === _errs71){
if(data38 && typeof data38 == "object" && !Array.isArray(data38)){
if(data38.user_id !== undefined){
let data39 = data38.user_id;
if((typeof data39 !== "string") && (data39 !== null)){
validate21.errors = [{instancePath:instancePath+"/metadata/user_id",schemaPath:"#/properties/metadata/properties/user_id/type",keyword:"type",params:{type: schema6.properties.metadata.properties.user_id.type},message:"must be string,null"}];
return false;
}
}
}
}
var valid0 = _errs71 === errors;
}
else {
var valid0 = true;
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
else {
validate21.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
validate21.errors = vErrors;
return errors === 0;
}
